import SpeechEngine
import SpeechService
import Testing
@testable import SpeechCLI

/// A hand-made transcript (formatting tests need no model).
func sampleTranscript() -> Transcript {
    let words1 = [
        WordTiming(word: " And", startSeconds: 0.0, endSeconds: 0.32, probability: 0.81),
        WordTiming(word: " so", startSeconds: 0.32, endSeconds: 0.6, probability: 0.97),
    ]
    let words2 = [WordTiming(word: " ask", startSeconds: 3661.25, endSeconds: 3661.5, probability: 0.5)]
    return Transcript(
        segments: [
            Segment(id: 0, startSeconds: 0, endSeconds: 1.5, text: " And so", tokens: [1, 2], words: words1,
                    averageLogProbability: -0.2, noSpeechProbability: 0.01, compressionRatio: 1.1, temperature: 0),
            Segment(id: 1, startSeconds: 1.5, endSeconds: 1.5, text: "  ", tokens: [], words: [],
                    averageLogProbability: -0.2, noSpeechProbability: 0.01, compressionRatio: 1.1, temperature: 0),
            Segment(id: 2, startSeconds: 3661.25, endSeconds: 3662.0, text: " ask.", tokens: [3], words: words2,
                    averageLogProbability: -.infinity, noSpeechProbability: 0.2, compressionRatio: 1.3, temperature: 0.2),
        ],
        language: "en", languageProbability: 1, durationSeconds: 3662,
        alternatives: [Alternative(text: "And so ask.", score: -0.3)])
}

@Suite struct SubtitleWriterTests {
    @Test(arguments: [
        (0.0, "00:00:00,000"), (1.5, "00:00:01,500"), (61.0004, "00:01:01,000"),
        (3661.25, "01:01:01,250"), (59.9996, "00:01:00,000"), (-3, "00:00:00,000"),
        (Double.nan, "00:00:00,000"),
    ])
    func srtTimestamps(_ seconds: Double, _ expected: String) {
        #expect(SubtitleWriter.timestamp(seconds, decimalSeparator: ",") == expected)
    }

    @Test func srtCuesAreNumberedAndSkipEmptySegments() {
        let srt = SubtitleWriter.srt(SubtitleWriter.cues(of: sampleTranscript(), words: false))
        #expect(srt == """
        1
        00:00:00,000 --> 00:00:01,500
        And so

        2
        01:01:01,250 --> 01:01:02,000
        ask.

        """)
    }

    @Test func vttHasHeaderAndDotSeparator() {
        let vtt = SubtitleWriter.vtt(SubtitleWriter.cues(of: sampleTranscript(), words: false))
        #expect(vtt.hasPrefix("WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nAnd so\n\n"))
        #expect(vtt.hasSuffix("01:01:01.250 --> 01:01:02.000\nask.\n"))
    }

    @Test func wordCues() {
        let cues = SubtitleWriter.cues(of: sampleTranscript(), words: true)
        #expect(cues.map(\.text) == ["And", "so", "ask"])
        #expect(cues[1].startSeconds == 0.32)
    }

    @Test func emptyTranscriptGivesEmptySubtitles() {
        let empty = Transcript(segments: [], language: "en", languageProbability: 1, durationSeconds: 0)
        #expect(SubtitleWriter.srt(SubtitleWriter.cues(of: empty, words: false)) == "")
        #expect(SubtitleWriter.vtt(SubtitleWriter.cues(of: empty, words: false)) == "WEBVTT\n\n")
    }
}
