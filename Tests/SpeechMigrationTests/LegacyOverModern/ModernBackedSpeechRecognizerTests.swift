import Foundation
import Speech
import SpeechMigration
import Testing

/// The legacy-over-modern adapter's task lifecycle without recognition:
/// typed errors in the legacy delivery shapes, cancellation rules.
@Suite struct ModernBackedSpeechRecognizerTests {
    /// Records delegate calls.
    final class Recorder: NSObject, ModernBackedRecognitionTaskDelegate, @unchecked Sendable {
        var calls: [String] = []
        var done: CheckedContinuation<Void, Never>?
        func speechRecognitionTaskWasCancelled(_ task: ModernBackedRecognitionTask) { calls.append("cancelled") }
        func speechRecognitionTask(_ task: ModernBackedRecognitionTask, didFinishSuccessfully successfully: Bool) {
            calls.append("finished(\(successfully))")
            done?.resume()
            done = nil
        }
    }

    @Test("a locale no transcriber supports fails the task with SFSpeechError 14 through the handler")
    func unsupportedLocale() async throws {
        let recognizer = try #require(ModernBackedSpeechRecognizer(locale: Locale(identifier: "tlh")))
        recognizer.queue = OperationQueue()
        let request = ModernBackedAudioBufferRecognitionRequest()
        request.endAudio()
        let error: (any Error)? = await withCheckedContinuation { continuation in
            recognizer.recognitionTask(with: request) { result, error in
                #expect(result == nil)
                continuation.resume(returning: error)
            }
        }
        let speechError = try #require(error as? SFSpeechError)
        #expect(speechError.code == .cannotAllocateUnsupportedLocale)
        #expect((error as NSError?)?.domain == SFSpeechErrorDomain)
    }

    @Test("a delegate task that fails reports didFinishSuccessfully(false) and keeps task.error")
    func delegateFailure() async throws {
        let recognizer = try #require(ModernBackedSpeechRecognizer(locale: Locale(identifier: "tlh")))
        recognizer.queue = OperationQueue()
        let recorder = Recorder()
        let request = ModernBackedURLRecognitionRequest(url: URL(fileURLWithPath: "/nonexistent.wav"))
        var task: ModernBackedRecognitionTask?
        await withCheckedContinuation { continuation in
            recorder.done = continuation
            task = recognizer.recognitionTask(with: request, delegate: recorder)
        }
        #expect(recorder.calls == ["finished(false)"])
        #expect(task?.error != nil)
        #expect(task?.state == .completed)
    }

    @Test("cancel delivers one kLSRErrorDomain 301 error; a second cancel and finish do nothing")
    func cancel() async throws {
        let recognizer = try #require(ModernBackedSpeechRecognizer(locale: Locale(identifier: "tlh")))
        recognizer.queue = OperationQueue()
        let request = ModernBackedAudioBufferRecognitionRequest()
        let errors = ErrorBox()
        let task = recognizer.recognitionTask(with: request) { _, error in
            if let error { errors.append(error) }
        }
        task.cancel()
        task.cancel()
        task.finish()
        try await Task.sleep(for: .milliseconds(300))
        #expect(task.isCancelled)
        #expect(task.state == .completed)
        let received = errors.values
        #expect(received.count == 1)
        #expect((received.first as NSError?)?.domain == "kLSRErrorDomain" && (received.first as NSError?)?.code == 301)
    }

    @Test("the buffer request's native format is 16 kHz mono Float32; settings copy from a legacy request")
    func requestSettings() {
        let legacy = SFSpeechURLRecognitionRequest(url: URL(fileURLWithPath: "/tmp/a.wav"))
        legacy.contextualStrings = ["SpeechCompat"]
        legacy.shouldReportPartialResults = false
        legacy.addsPunctuation = true
        legacy.taskHint = .dictation
        let request = ModernBackedURLRecognitionRequest(legacy)
        #expect(request.url == legacy.url && request.contextualStrings == ["SpeechCompat"])
        #expect(!request.shouldReportPartialResults && request.addsPunctuation && request.taskHint == .dictation)
        let buffers = ModernBackedAudioBufferRecognitionRequest()
        #expect(buffers.nativeAudioFormat.sampleRate == 16_000 && buffers.nativeAudioFormat.channelCount == 1)
    }
}

/// Errors collected from a handler on another queue.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [any Error] = []
    func append(_ error: any Error) { lock.withLock { stored.append(error) } }
    var values: [any Error] { lock.withLock { stored } }
}
