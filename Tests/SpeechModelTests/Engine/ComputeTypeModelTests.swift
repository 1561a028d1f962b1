import Foundation
import SpeechEngine
import SpeechEvaluation
import TestSupport
import Testing

/// int8 weights and kernels (opt-in) against float32 (the default) on real speech:
/// the int8 transcripts of a corpus slice keep the float32 WER within two
/// points (about six words of the slice's 324), and what loads by default
/// is float32 (int8 is opt-in until it keeps the whole corpus's WER).
@Suite("Compute types (whisper-base)", .serialized, .enabled(if: Models.testsEnabled, Models.disabledReason))
struct ComputeTypeModelTests {
    let scorer = TranscriptScorer()

    @Test func int8KeepsTheFloat32WEROnReadSpeech() throws {
        let float32 = try Models.transcriber()
        #expect(float32.model.computeType == .float32)
        let int8 = Transcriber(model: try WhisperModel(.whisperBase, computeType: .int8))
        #expect(int8.model.computeType == .int8)
        let entries = try CorpusManifest.entries(set: "librispeech-dev-clean") + CorpusManifest.entries(set: "ljspeech")
        #expect(entries.count >= 8)
        var counts: [ComputeType: ErrorCounts] = [.int8: ErrorCounts(), .float32: ErrorCounts()]
        for entry in entries {
            for (type, transcriber) in [(ComputeType.int8, int8), (.float32, float32)] {
                let transcript = try transcriber.transcribe(file: entry.audioURL, options: .greedy)
                counts[type]! += scorer.score(reference: entry.referenceText, hypothesis: transcript.text,
                                              languageTag: entry.languageTag).counts
            }
        }
        let int8Rate = counts[.int8]!.rate, float32Rate = counts[.float32]!.rate
        #expect(int8Rate <= float32Rate + 0.02, "int8 WER \(int8Rate), float32 \(float32Rate)")
        #expect(float32Rate < 0.10, "float32 WER \(float32Rate)")
    }

    /// Streams get their volatile results from whisper-tiny.en in int8 for
    /// English only, loaded once; a float32 load of the same model is another entry.
    @Test func volatileResultsComeFromTinyInInt8ForEnglish() throws {
        let cache = ModelCache(store: .default)
        let volatile = try #require(cache.volatileTranscriber(language: "en"))
        #expect(volatile.model.computeType == .int8)
        #expect(volatile.model.dimensions.width == 384, "whisper-tiny.en")
        #expect(cache.volatileTranscriber(language: "en") === volatile)
        #expect(cache.volatileTranscriber(language: "de") == nil)
        #expect(cache.volatileTranscriber(language: nil) == nil)
        let float32 = try cache.transcriber(.whisperTinyEn)
        #expect(float32 !== volatile && float32.model.computeType == .float32)
        #expect(cache.isLoaded(.whisperTinyEn))
    }
}

