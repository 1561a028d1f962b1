import Foundation
import SpeechEngine
import SpeechEvaluation
import TestSupport
import Testing

/// Batched decoding (`TranscriptionOptions.batchSize`) on real speech: the
/// five LibriSpeech clips joined with pauses (74 s), split by the speech
/// detector into chunks of at most 30 s.
///
/// Decoding four chunks in lockstep must give each chunk exactly what
/// decoding it alone gives (`batchSize` 1: the same chunks one at a time),
/// with segments and word timings in file time and in order.
@Suite("Batched transcription (whisper-base)", .serialized,
       .enabled(if: Models.testsEnabled, Models.disabledReason))
struct TranscriberBatchedModelTests {
    let scorer = TranscriptScorer()
    static let pauseSeconds = 0.8

    /// The clips joined with `pauseSeconds` of silence, and the joined reference.
    static func joinedClips() throws -> (samples: [Float], reference: String) {
        let entries = try CorpusManifest.entries(set: "librispeech-dev-clean").sorted { $0.id < $1.id }
        let pause = [Float](repeating: 0, count: Int(pauseSeconds * Transcriber.sampleRate))
        var samples: [Float] = []
        for entry in entries { samples += try AudioDecoder.decode(contentsOf: entry.audioURL) + pause }
        return (samples, entries.map(\.referenceText).joined(separator: " "))
    }

    static func options(batchSize: Int?) -> TranscriptionOptions {
        var options = TranscriptionOptions()
        options.language = "en"
        options.batchSize = batchSize
        return options
    }

    @Test func chunksDecodedTogetherEqualChunksDecodedAloneInFileTime() throws {
        let (samples, reference) = try Self.joinedClips()
        let duration = Double(samples.count) / Transcriber.sampleRate
        let transcriber = try Models.transcriber()
        let alone = try transcriber.transcribe(samples: samples, options: Self.options(batchSize: 1))
        let together = try transcriber.transcribe(samples: samples, options: Self.options(batchSize: 4))

        // More than one chunk, all in one batch: the lockstep path ran.
        #expect(together.segments.count >= 3)
        #expect(together.segments.map(\.text) == alone.segments.map(\.text))
        for (a, b) in zip(together.segments, alone.segments) {
            #expect(abs(a.startSeconds - b.startSeconds) < 1e-9 && abs(a.endSeconds - b.endSeconds) < 1e-9,
                    "\(a.text): \(a.startSeconds)-\(a.endSeconds) vs \(b.startSeconds)-\(b.endSeconds)")
            #expect(a.words.map(\.word) == b.words.map(\.word))
        }

        // File time: ordered, inside the audio, ids in sequence; words inside their segments' span.
        #expect(together.segments.map(\.id) == Array(together.segments.indices))
        var previousEnd = 0.0
        var previousWordEnd = 0.0
        for segment in together.segments {
            #expect(segment.startSeconds >= previousEnd - 1e-9, "segment \(segment.id) starts before the one before ends")
            #expect(segment.endSeconds >= segment.startSeconds && segment.endSeconds <= duration + 1e-9)
            previousEnd = segment.endSeconds
            for word in segment.words {
                #expect(word.startSeconds >= previousWordEnd - 0.05 && word.endSeconds >= word.startSeconds,
                        "'\(word.word)' at \(word.startSeconds) is out of order")
                #expect(word.endSeconds <= duration + 1e-9)
                previousWordEnd = word.endSeconds
            }
        }
        // The last clip's words come near its place in the file, not near the first chunk's start.
        let lastWord = try #require(together.segments.last?.words.last)
        #expect(lastWord.endSeconds > duration - 10, "last word ends at \(lastWord.endSeconds) of \(duration) s")

        // Batched reads as well as window by window here (read speech; both about 5–7% WER).
        let sequential = try transcriber.transcribe(samples: samples, options: Self.options(batchSize: nil))
        let batchedScore = scorer.score(reference: reference, hypothesis: together.text, languageTag: "en-US")
        let sequentialScore = scorer.score(reference: reference, hypothesis: sequential.text, languageTag: "en-US")
        #expect(batchedScore.counts.errorCount <= sequentialScore.counts.errorCount + 3,
                "batched \(batchedScore.counts.rate) vs window by window \(sequentialScore.counts.rate): \(together.text)")
    }

    /// Every LibriSpeech and LJSpeech clip joined with no pause between them
    /// (124 s): before chunks that skipped speech were decoded again, one
    /// chunk came out as a single clause over 23 s and the 22 s sentence after
    /// it ("If the reader will excuse me …") was gone (24.5% WER batched
    /// against 5.6% window by window).
    @Test func aChunkThatSkipsSpeechIsDecodedAgainWithThePreviousText() throws {
        let entries = try (CorpusManifest.entries(set: "librispeech-dev-clean") + CorpusManifest.entries(set: "ljspeech"))
            .sorted { $0.audioURL.path < $1.audioURL.path }
        var samples: [Float] = []
        for entry in entries { samples += try AudioDecoder.decode(contentsOf: entry.audioURL) }
        let reference = entries.map(\.referenceText).joined(separator: " ")
        let transcriber = try Models.transcriber()
        var greedy = Self.options(batchSize: 8)
        greedy.beamSize = 1
        let batched = try transcriber.transcribe(samples: samples, options: greedy)
        greedy.batchSize = nil
        let sequential = try transcriber.transcribe(samples: samples, options: greedy)
        let batchedScore = scorer.score(reference: reference, hypothesis: batched.text, languageTag: "en-US").counts
        let sequentialScore = scorer.score(reference: reference, hypothesis: sequential.text, languageTag: "en-US").counts
        #expect(batched.text.contains("If the reader will excuse me"), "\(batched.text)")
        // A skipped sentence is 35 deletions; the two paths' other differences are a few words.
        #expect(batchedScore.deletions <= sequentialScore.deletions + 5,
                "batched deleted \(batchedScore.deletions), window by window \(sequentialScore.deletions): \(batched.text)")
        #expect(batchedScore.rate <= sequentialScore.rate + 0.02,
                "batched \(batchedScore.rate) vs window by window \(sequentialScore.rate)")
    }
}
