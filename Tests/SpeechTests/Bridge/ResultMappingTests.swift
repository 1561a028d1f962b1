import Foundation
import Testing
@testable import Speech

@Suite struct ResultMappingTests {
    static func word(_ text: String, _ start: Double, probability: Double = 0.7) -> RecognizedWord {
        RecognizedWord(text: text, startSeconds: start, endSeconds: start + 0.3, confidence: probability)
    }

    /// Every segment's range indexes `formattedString` (UTF-16) and yields its substring.
    static func expectRangesIndex(_ transcription: SFTranscription) {
        let text = transcription.formattedString as NSString
        var previousEnd = 0
        for segment in transcription.segments {
            #expect(segment.substringRange.location >= previousEnd)
            #expect(NSMaxRange(segment.substringRange) <= text.length)
            #expect(text.substring(with: segment.substringRange) == segment.substring)
            previousEnd = NSMaxRange(segment.substringRange)
        }
    }

    @Test func rangesIndexFormattedStringWithPunctuationAndNonASCII() throws {
        let hypothesis = RecognizedSpan(startSeconds: 0, endSeconds: 3, text: "Héllo, wörld 😀 ok.",
                                             words: [Self.word(" Héllo,", 0.1), Self.word(" wörld", 0.5),
                                                     Self.word(" 😀", 1.0), Self.word(" ok.", 1.5)])
        let result = ResultMapping.legacyResult(finals: [hypothesis], volatile: nil, isFinal: true, voice: nil)
        let transcription = result.bestTranscription
        #expect(transcription.formattedString == "Héllo, wörld 😀 ok.")
        #expect(transcription.segments.map(\.substring) == ["Héllo,", "wörld", "😀", "ok."])
        #expect(transcription.segments[3].substringRange == NSRange(location: 16, length: 3))
        Self.expectRangesIndex(transcription)
        #expect(transcription.segments.map(\.timestamp) == [0.1, 0.5, 1.0, 1.5])
        #expect(transcription.segments.allSatisfy { abs($0.duration - 0.3) < 1e-9 && abs($0.confidence - 0.7) < 1e-6 })
    }

    @Test func languagesWithoutSpacesStayJoined() {
        let hypothesis = RecognizedSpan(startSeconds: 0, endSeconds: 1, text: "你好世界",
                                             words: [Self.word("你好", 0), Self.word("世界", 0.4)])
        let transcription = ResultMapping.legacyResult(finals: [hypothesis], volatile: nil, isFinal: false,
                                                       voice: nil).bestTranscription
        #expect(transcription.formattedString == "你好世界")
        Self.expectRangesIndex(transcription)
    }

    @Test func partialsAreCumulativeWithZeroConfidenceAndNoMetadata() {
        let committed = RecognizedSpan(startSeconds: 0, endSeconds: 1, text: "one two",
                                            words: [Self.word(" one", 0.1), Self.word(" two", 0.5)])
        let guess = RecognizedSpan(startSeconds: 1, endSeconds: 2, text: "three",
                                        words: [Self.word(" three", 1.1, probability: 0.4)])
        let result = ResultMapping.legacyResult(finals: [committed], volatile: guess, isFinal: false, voice: nil)
        #expect(result.bestTranscription.formattedString == "one two three")
        #expect(!result.isFinal)
        #expect(result.bestTranscription.segments.allSatisfy { $0.confidence == 0 && $0.alternativeSubstrings.isEmpty })
        #expect(result.speechRecognitionMetadata == nil)
        Self.expectRangesIndex(result.bestTranscription)
    }

    @Test func finalsCarryMetadataAndAlternatives() throws {
        let hypothesis = RecognizedSpan(startSeconds: 0, endSeconds: 2, text: "recognize speech",
                                             words: [Self.word(" recognize", 0.5), Self.word(" speech", 1.0)],
                                             alternatives: [(text: "recognize speech", score: -0.1),
                                                            (text: "wreck a nice beach", score: -0.9),
                                                            (text: "recognise speech", score: -1.2)])
        let result = ResultMapping.legacyResult(finals: [hypothesis], volatile: nil, isFinal: true, voice: nil)
        #expect(result.transcriptions.map(\.formattedString)
                == ["recognize speech", "wreck a nice beach", "recognise speech"])
        #expect(result.bestTranscription.segments[0].alternativeSubstrings == ["recognise"])
        #expect(result.bestTranscription.segments[1].alternativeSubstrings.isEmpty)
        for transcription in result.transcriptions { Self.expectRangesIndex(transcription) }
        let metadata = try #require(result.speechRecognitionMetadata)
        #expect(abs(metadata.speechStartTimestamp - 0.5) < 1e-9)
        #expect(abs(metadata.speechDuration - 0.8) < 1e-9)
        #expect(abs(metadata.averagePauseDuration - 0.2) < 1e-9)
        #expect(abs(metadata.speakingRate - 2 / 0.8 * 60) < 1e-6)
        #expect(metadata.voiceAnalytics == nil)
    }

    @Test func textWithoutTimedWordsIsSpreadOverItsRange() {
        let hypothesis = RecognizedSpan(startSeconds: 2, endSeconds: 4, text: "ab cd", words: [])
        let segments = ResultMapping.legacyResult(finals: [], volatile: hypothesis, isFinal: false, voice: nil)
            .bestTranscription.segments
        #expect(segments.map(\.substring) == ["ab", "cd"])
        #expect(segments.map(\.timestamp) == [2, 3])
    }
}
