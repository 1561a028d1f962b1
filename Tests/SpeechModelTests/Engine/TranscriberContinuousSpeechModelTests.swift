import Foundation
import SpeechEngine
import SpeechEvaluation
import TestSupport
import Testing

/// Batch decoding of long speech with no pause between sentences, where each
/// 30 s window starts mid-sentence and leans on the previous window's text.
///
/// Four LibriSpeech clips joined three times (124 s). whisper-base used to
/// loop here from 27 s on ("… I have been unable to reap any pecuniary and I
/// have been unable to reap …" for the rest of the file) while its prompt
/// held the previous text without its timestamp tokens; see `PromptHistory`.
@Suite("Transcriber on continuous speech (whisper-base)", .serialized,
       .enabled(if: Models.testsEnabled, Models.disabledReason))
struct TranscriberContinuousSpeechModelTests {
    static let ids = ["1272-128104-0000", "2412-153948-0000", "2412-153948-0001", "1272-141231-0002"]
    let scorer = TranscriptScorer()

    /// The most times any `n`-word sequence occurs in `words`: a decoding loop
    /// repeats one far more often than the speech does.
    static func mostRepeatedNGramCount(_ words: [String], n: Int) -> Int {
        guard words.count >= n else { return 0 }
        var counts: [ArraySlice<String>: Int] = [:]
        for start in 0...(words.count - n) { counts[words[start..<(start + n)], default: 0] += 1 }
        return counts.values.max() ?? 0
    }

    @Test func clipsJoinedWithoutPausesAreTranscribedWithoutLooping() throws {
        let entries = try CorpusManifest.entries(set: "librispeech-dev-clean")
        let clips = try Self.ids.map { id in try #require(entries.first { $0.id == id }, "\(id) is not in the corpus") }
        let joined = Array(repeating: clips, count: 3).flatMap { $0 }
        let samples = try joined.flatMap { try AudioDecoder.decode(contentsOf: $0.audioURL) }
        let duration = Double(samples.count) / Transcriber.sampleRate
        #expect(duration > 120)

        let transcript = try Models.transcriber().transcribe(samples: samples)
        let reference = joined.map(\.referenceText).joined(separator: " ")
        // whisper-base reads these clips at 5–7% WER one by one; the loop was above 60%.
        let score = scorer.score(reference: reference, hypothesis: transcript.text, languageTag: "en-US")
        #expect(score.counts.rate <= 0.15, "WER \(score.counts.rate): \(transcript.text)")
        // The reference repeats each 8-word stretch three times (the clips
        // come three times); the transcript may not repeat any more often.
        let referenceWords = scorer.units(of: reference, languageTag: "en-US")
        let words = scorer.units(of: transcript.text, languageTag: "en-US")
        let allowed = Self.mostRepeatedNGramCount(referenceWords, n: 8)
        #expect(allowed == 3)
        #expect(Self.mostRepeatedNGramCount(words, n: 8) <= allowed, "\(transcript.text)")
        // It reads to the end, in time order.
        let last = try #require(transcript.segments.last)
        #expect(last.endSeconds > duration - 5 && last.endSeconds <= duration + 0.01)
        for (a, b) in zip(transcript.segments, transcript.segments.dropFirst()) {
            #expect(a.startSeconds <= b.startSeconds)
        }
    }
}
