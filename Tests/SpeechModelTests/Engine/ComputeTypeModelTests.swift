import Foundation
import SpeechEngine
import SpeechEvaluation
import TestSupport
import Testing

/// The compute types on real speech (whisper-base, a corpus slice of read
/// speech, greedy): half weights with float32 arithmetic give float32's
/// transcripts (the same values, summed in another order: at most one word
/// of the slice's 324 may move; that is the default); the encoder in int8
/// (all its layers, or its feed-forward layers) with the decoder in half
/// weights, and the feed-forward layers with the decoder in int8 over
/// two-level activations (`int8Mixed`), keep float32's WER within one point
/// (three words), and the all-int8 types within two (about six words).
@Suite("Compute types (whisper-base)", .serialized, .enabled(if: Models.testsEnabled, Models.disabledReason))
struct ComputeTypeModelTests {
    let scorer = TranscriptScorer()

    @Test func halfWeightsReadAsFloat32AndInt8StaysWithinTwoPoints() throws {
        let standard = try Models.transcriber()
        #expect(standard.model.computeType == .float16Weights)
        #expect(ComputeType.default == .float16Weights)
        var transcribers = [(ComputeType.float16Weights, standard)]
        for type in [ComputeType.float32, .int8Encoder, .int8EncoderFeedForward, .int8Mixed, .int8Weights, .int8] {
            let transcriber = Transcriber(model: try WhisperModel(.whisperBase, computeType: type))
            #expect(transcriber.model.computeType == type)
            transcribers.append((type, transcriber))
        }
        let entries = try CorpusManifest.entries(set: "librispeech-dev-clean") + CorpusManifest.entries(set: "ljspeech")
        #expect(entries.count >= 8)
        var counts: [ComputeType: ErrorCounts] = [:]
        var sameAsFloat32 = 0
        for entry in entries {
            var texts: [ComputeType: String] = [:]
            for (type, transcriber) in transcribers {
                let transcript = try transcriber.transcribe(file: entry.audioURL, options: .greedy)
                texts[type] = transcript.text
                counts[type, default: ErrorCounts()] += scorer.score(reference: entry.referenceText,
                                                                    hypothesis: transcript.text,
                                                                    languageTag: entry.languageTag).counts
            }
            if texts[.float16Weights] == texts[.float32] { sameAsFloat32 += 1 }
        }
        let float32 = counts[.float32]!
        #expect(float32.rate < 0.10, "float32 WER \(float32.rate)")
        #expect(sameAsFloat32 >= entries.count - 1, "\(sameAsFloat32) of \(entries.count) transcripts as float32's")
        #expect(abs(counts[.float16Weights]!.errorCount - float32.errorCount) <= 1,
                "half weights: \(counts[.float16Weights]!.rate), float32 \(float32.rate)")
        for type in [ComputeType.int8Encoder, .int8EncoderFeedForward, .int8Mixed] {
            #expect(counts[type]!.rate <= float32.rate + 0.01, "\(type) WER \(counts[type]!.rate), float32 \(float32.rate)")
        }
        for type in [ComputeType.int8Weights, .int8] {
            #expect(counts[type]!.rate <= float32.rate + 0.02, "\(type) WER \(counts[type]!.rate), float32 \(float32.rate)")
        }
    }

    /// `SPEECHCOMPAT_COMPUTE_TYPE` reaches loads that name no type (the faces'),
    /// and a load that names one keeps it.
    @Test func theEnvironmentChoosesTheFacesComputeType() throws {
        let cache = ModelCache(store: .default, environment: [ComputeType.environmentVariable: "int8-mixed"])
        #expect(try cache.transcriber(.whisperBase).model.computeType == .int8Mixed)
        #expect(try cache.transcriber(.whisperBase, computeType: .default).model.computeType == .default)
        cache.releaseAll()
    }

    /// Streams get their volatile results from whisper-tiny.en in int8 for
    /// English only, loaded once; a default load of the same model is another entry.
    @Test func volatileResultsComeFromTinyInInt8ForEnglish() throws {
        let cache = ModelCache(store: .default)
        let volatile = try #require(cache.volatileTranscriber(language: "en"))
        #expect(volatile.model.computeType == .int8)
        #expect(volatile.model.dimensions.width == 384, "whisper-tiny.en")
        #expect(cache.volatileTranscriber(language: "en") === volatile)
        #expect(cache.volatileTranscriber(language: "de") == nil)
        #expect(cache.volatileTranscriber(language: nil) == nil)
        let standard = try cache.transcriber(.whisperTinyEn)
        #expect(standard !== volatile && standard.model.computeType == .default)
        #expect(cache.isLoaded(.whisperTinyEn))
    }
}

