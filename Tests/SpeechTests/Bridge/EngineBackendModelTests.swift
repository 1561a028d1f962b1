import Foundation
@testable import Speech
import SpeechEngine
import TestSupport
import Testing

/// Which model the faces' backend decodes with: a recording (a URL
/// request's or an analyzer's file) in the default type, as
/// `speech transcribe` decodes files; live audio's finals in
/// `ComputeType.live`, loaded only when live audio comes: a client holds
/// the model it uses. Caches of their own, so other suites' loads do not count.
@Suite(.enabled(if: Models.testsEnabled, Models.disabledReason), .serialized)
struct EngineBackendModelTests {
    /// The finals' text, once the backend finished.
    private static func finalText(_ backend: EngineBackend) async throws -> String {
        var finals: [String] = []
        for await update in backend.updates {
            switch update {
            case .final(let span): finals.append(span.text)
            case .failed(let error): throw error
            default: break
            }
        }
        return finals.joined(separator: " ")
    }

    @Test func recordingsKeepTheDefaultTypeAndLiveAudioLoadsTheLiveOne() async throws {
        let clip = try ModelTestSupport.clip("1272-128104-0000")
        let samples = try AudioDecoder.decode(contentsOf: clip.url)
        let models = ModelCache(store: .default, environment: [:])
        let locale = Locale(identifier: "en-US")

        let file = try EngineBackend(locale: locale, configuration: RecognitionConfiguration(), models: models)
        file.appendRecording(samples)
        file.finish()
        let fileText = try await Self.finalText(file)
        #expect(models.isLoaded(.whisperBase, computeType: .default))
        #expect(!models.isLoaded(.whisperBase, computeType: .live), "a file alone loaded the live model")
        var english = TranscriptionOptions()
        english.language = "en"
        let batch = try models.transcriber(.whisperBase).transcribe(samples: samples, options: english)
        #expect(ModelTestSupport.words(fileText) == ModelTestSupport.words(batch.text), "\(fileText) | \(batch.text)")

        // A live-only client, in a cache of its own: the live model only.
        let liveModels = ModelCache(store: .default, environment: [:])
        let live = try EngineBackend(locale: locale, configuration: RecognitionConfiguration(), models: liveModels)
        for start in stride(from: 0, to: samples.count, by: 1_600) {
            live.append(Array(samples[start..<min(samples.count, start + 1_600)]))
        }
        live.finish()
        let liveText = try await Self.finalText(live)
        #expect(liveModels.isLoaded(.whisperBase, computeType: .live))
        #expect(!liveModels.isLoaded(.whisperBase, computeType: .default), "live audio alone loaded the files' model")
        #expect(ModelTestSupport.wordErrorRate(liveText, reference: clip.reference) < 0.15, "\(liveText)")
    }
}
