import Foundation
@testable import Speech
@testable import SpeechMigration
import Testing

/// The modern pipeline under the legacy face, without a model: how a legacy
/// request's configuration becomes modern module options, and how the
/// legacy task's lifecycle holds over it.
@Suite struct ModernPipelineBackendTests {
    @Test("a legacy request's configuration becomes a DictationTranscriber's options")
    func configurationMapping() throws {
        let request = SFSpeechURLRecognitionRequest(url: URL(fileURLWithPath: "/tmp/a.wav"))
        request.shouldReportPartialResults = false
        request.customizedLanguageModel = SFSpeechLanguageModel.Configuration(
            languageModel: URL(fileURLWithPath: "/tmp/lm.bin"), vocabulary: nil, weight: 0.8)
        let plain = ModernPipelineBackend.transcriber(for: Locale(identifier: "en-US"),
                                                      configuration: request.recognitionConfiguration()).settings
        #expect(!plain.addsPunctuation, "legacy requests drop punctuation by default")
        #expect(!plain.reportsVolatileResults)
        #expect(plain.reportsAlternatives, "legacy results carry alternative transcriptions")
        #expect(plain.attributesTimeRanges && plain.attributesConfidence)
        #expect(plain.customLanguageModel?.languageModel.path == "/tmp/lm.bin")
        #expect(plain.customLanguageModel?.weight == 0.8)

        request.addsPunctuation = true
        request.shouldReportPartialResults = true
        let punctuated = ModernPipelineBackend.transcriber(for: Locale(identifier: "en-US"),
                                                           configuration: request.recognitionConfiguration()).settings
        #expect(punctuated.addsPunctuation && punctuated.reportsVolatileResults)
    }

    @Test("cancelling a task on the modern pipeline delivers one kLSRErrorDomain 301 and ends the task")
    func cancel() throws {
        let recognizer = try #require(SFSpeechRecognizer(locale: Locale(identifier: "en-US")))
        recognizer.queue = OperationQueue()
        recognizer.useModernPipeline()
        let request = SFSpeechAudioBufferRecognitionRequest()
        let box = ErrorBox()
        let task = recognizer.recognitionTask(with: request) { _, error in
            if let error { box.append(error) }
        }
        task.cancel()
        task.cancel()
        task.finish()
        // The one terminal error is delivered on the recognizer's queue.
        recognizer.queue.waitUntilAllOperationsAreFinished()
        #expect(task.isCancelled)
        let errors = box.values
        #expect(errors.count == 1)
        let error = try #require(errors.first as NSError?)
        #expect(error.domain == "kLSRErrorDomain" && error.code == 301)
    }
}

/// Errors collected from a handler on another queue.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [any Error] = []
    func append(_ error: any Error) { lock.withLock { stored.append(error) } }
    var values: [any Error] { lock.withLock { stored } }
}
