import Foundation
import SpeechEngine
import SpeechEvaluation
import Testing
import TestSupport
@testable import Speech

/// Modern-face accuracy against the engine's own batch transcription on the
/// English dev clips, scored by SpeechEvaluation (Whisper's normaliser).
@Suite("Modern face accuracy on the real engine",
       .enabled(if: Models.testsEnabled, Models.disabledReason), .serialized)
struct ModernAccuracyModelTests {
    @Test("modern-face WER is within half a point of the engine's batch WER")
    func modernWERIsWithinHalfAPointOfBatch() async throws {
        let manifest = try EvaluationManifest(contentsOf: Fixtures.corpusRoot.appendingPathComponent("manifest.tsv"))
        let clips = manifest.entries(inSets: ["librispeech-dev-clean", "ljspeech"])
        #expect(clips.count >= 10)
        let scorer = TranscriptScorer()
        let batchTranscriber = try ModelCache.shared.transcriber(.whisperBase)
        var batch = ErrorCounts(), modern = ErrorCounts()
        for clip in clips {
            var options = TranscriptionOptions()
            options.language = "en"
            let batchText = try batchTranscriber.transcribe(file: clip.audioURL, options: options).text

            let transcriber = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let results = collect(transcriber.results)
            let analyzer = try await SpeechAnalyzer(inputAudioFile: try AVAudioFile(forReading: clip.audioURL),
                                                    modules: [transcriber], finishAfterFile: true)
            _ = analyzer
            let collected = try #require(await value(of: results, within: 300))
            #expect(collected.error == nil)
            let modernText = collected.elements.filter(\.isFinal).map { String($0.text.characters) }.joined()

            batch += scorer.score(reference: clip.referenceText, hypothesis: batchText, languageTag: "en").counts
            modern += scorer.score(reference: clip.referenceText, hypothesis: modernText, languageTag: "en").counts
        }
        print("accuracy: batch WER \(batch.rate * 100)%, modern WER \(modern.rate * 100)% over \(clips.count) clips")
        #expect(modern.rate - batch.rate <= 0.005, "modern \(modern.rate) vs batch \(batch.rate)")
    }
}
