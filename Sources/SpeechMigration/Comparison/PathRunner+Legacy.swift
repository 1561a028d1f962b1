import Foundation
import Speech

extension PathRunner {
    /// The legacy face with a delegate, recording the delegate calls.
    func runLegacy(_ url: URL) async throws -> RecognitionOutcome {
        guard let recognizer = SFSpeechRecognizer(locale: locale) else {
            throw MigrationError(.unsupportedLocale, "SFSpeechRecognizer does not support \(locale.identifier).")
        }
        recognizer.queue = OperationQueue()
        let request = SFSpeechURLRecognitionRequest(url: url)
        configure(request)
        let recorder = LegacyDelegateRecorder()
        let (result, error) = await recorder.run { recognizer.recognitionTask(with: request, delegate: recorder) }
        return Self.outcome(.legacy, result: result, events: recorder.events, error: error)
    }

    /// The legacy face with a delegate, the modern pipeline underneath
    /// (`useModernPipeline()`): the same code as `runLegacy`.
    func runLegacyOverModern(_ url: URL) async throws -> RecognitionOutcome {
        guard let recognizer = SFSpeechRecognizer(locale: locale) else {
            throw MigrationError(.unsupportedLocale, "SFSpeechRecognizer does not support \(locale.identifier).")
        }
        recognizer.queue = OperationQueue()
        recognizer.useModernPipeline()
        let request = SFSpeechURLRecognitionRequest(url: url)
        configure(request)
        let recorder = LegacyDelegateRecorder()
        let (result, error) = await recorder.run { recognizer.recognitionTask(with: request, delegate: recorder) }
        return Self.outcome(.legacyOverModern, result: result, events: recorder.events, error: error)
    }
}

/// Records the delegate calls of a legacy-shaped task (the face's own or the
/// adapter's) and waits for the end.
final class LegacyDelegateRecorder: NSObject, SFSpeechRecognitionTaskDelegate, @unchecked Sendable {
    // @unchecked: delegate calls arrive serially; read after the end.
    private var recorded: [String] = []

    /// The delegate calls in order, with `finishedReadingAudio` placed just
    /// before the terminal calls: a file is read faster than it is
    /// recognized, so where that call falls among the partial results
    /// depends on thread timing; its place relative to the final result is
    /// what the legacy contract fixes.
    var events: [String] {
        lock.withLock {
            guard recorded.contains("finishedReadingAudio") else { return recorded }
            var ordered = recorded.filter { $0 != "finishedReadingAudio" }
            let terminal = ordered.firstIndex { ["finalResult", "cancelled", "finishedSuccessfully",
                                                 "finishedUnsuccessfully"].contains($0) } ?? ordered.endIndex
            ordered.insert("finishedReadingAudio", at: terminal)
            return ordered
        }
    }
    private var result: SFSpeechRecognitionResult?
    private var continuation: CheckedContinuation<(SFSpeechRecognitionResult?, (any Error)?), Never>?
    private var errorSource: () -> (any Error)? = { nil }
    private let lock = NSLock()

    /// Starts the task with `start` and waits for `didFinishSuccessfully`.
    func run(_ start: () -> SFSpeechRecognitionTask) async -> (SFSpeechRecognitionResult?, (any Error)?) {
        await withCheckedContinuation { continuation in
            lock.withLock { self.continuation = continuation }
            let task = start()
            errorSource = { [weak task] in task?.error }
        }
    }

    private func record(_ event: String) { lock.withLock { recorded.append(event) } }

    private func end(successfully: Bool) {
        record(successfully ? "finishedSuccessfully" : "finishedUnsuccessfully")
        let waiting = lock.withLock { () -> CheckedContinuation<(SFSpeechRecognitionResult?, (any Error)?), Never>? in
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: (result, successfully ? nil : errorSource()))
    }

    func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask) { record("detectedSpeech") }
    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didHypothesizeTranscription transcription: SFTranscription) {
        record("hypothesis")
    }
    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishRecognition recognitionResult: SFSpeechRecognitionResult) {
        result = recognitionResult
        record("finalResult")
    }
    func speechRecognitionTaskFinishedReadingAudio(_ task: SFSpeechRecognitionTask) { record("finishedReadingAudio") }
    func speechRecognitionTaskWasCancelled(_ task: SFSpeechRecognitionTask) { record("cancelled") }
    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool) {
        end(successfully: successfully)
    }
}
