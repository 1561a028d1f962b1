import TestSupport
import Foundation
import Speech
import SpeechEngine
import Testing

/// Legacy-face accuracy against the engine's own batch transcription, on the
/// English dev clips (LibriSpeech dev-clean, LJ Speech), real model.
@Suite(.enabled(if: Models.testsEnabled, Models.disabledReason), .serialized)
struct SFSpeechURLRecognitionRequestAccuracyModelTests {
    @Test func legacyWERIsWithinHalfAPointOfTheEngineBatchWER() async throws {
        let ids = try ModelTestSupport.clipIDs(inSets: ["librispeech-dev-clean", "ljspeech"])
        #expect(ids.count >= 10)
        let transcriber = try ModelCache.shared.transcriber(.whisperBase)
        var batchEdits = 0, legacyEdits = 0, referenceWords = 0
        for id in ids {
            let clip = try ModelTestSupport.clip(id)
            var options = TranscriptionOptions()
            options.language = "en"
            options.addsPunctuation = false
            // Off the cooperative pool: batch decoding blocks its thread for seconds.
            let batchOptions = options
            let batch = try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result { try transcriber.transcribe(file: clip.url, options: batchOptions).text })
                }
            }
            let legacy = try await ModelTestSupport.recognize(SFSpeechURLRecognitionRequest(url: clip.url))
                .bestTranscription.formattedString
            let batchScore = ModelTestSupport.wordEdits(batch, reference: clip.reference)
            let legacyScore = ModelTestSupport.wordEdits(legacy, reference: clip.reference)
            batchEdits += batchScore.edits
            legacyEdits += legacyScore.edits
            referenceWords += batchScore.referenceWords
            print("accuracy \(id): batch \(batchScore.edits) legacy \(legacyScore.edits) / \(batchScore.referenceWords)")
        }
        let batchWER = Double(batchEdits) / Double(referenceWords) * 100
        let legacyWER = Double(legacyEdits) / Double(referenceWords) * 100
        print("accuracy: batch WER \(batchWER)%, legacy WER \(legacyWER)% over \(ids.count) clips")
        #expect(legacyWER - batchWER <= 0.5, "legacy \(legacyWER)% vs batch \(batchWER)%")
    }
}
