import Foundation
import Speech

/// Records what a recognition task delivers — handler calls or delegate
/// calls — in order, with the queue each ran on.
///
/// With a `SpeechTestEnvironment`, `await environment.drain()` and then read
/// `calls`: they are complete. On the real engine (model tests), wait with
/// `completion(within:)`, which returns when the terminal call arrives.
package final class TaskRecorder: NSObject, SFSpeechRecognitionTaskDelegate, Sendable {
    /// One delivered call.
    package enum Call: Sendable, Equatable {
        case detectedSpeech
        case hypothesis(String)
        case processed(TimeInterval)
        case finishedReading
        case finalRecognition(String)
        case cancelled
        case finishedSuccessfully(Bool)
        case result(String, isFinal: Bool)
        case error(domain: String, code: Int)

        /// Whether this is a progress tick (`didProcessAudioDuration`).
        package var isProgress: Bool {
            if case .processed = self { return true }
            return false
        }

        /// Whether this is a hypothesis, whatever its text.
        package var isHypothesis: Bool {
            if case .hypothesis = self { return true }
            return false
        }
    }

    private struct State {
        var calls: [Call] = []
        var results: [SFSpeechRecognitionResult] = []
        var queues: [ObjectIdentifier?] = []
        var terminalCount = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedState(State())

    package override init() {
        super.init()
    }

    /// The calls so far, in order.
    package var calls: [Call] { state.withLock { $0.calls } }
    /// The calls without progress ticks.
    package var mainCalls: [Call] { calls.filter { !$0.isProgress } }
    /// The results delivered to the handler or delegate.
    package var results: [SFSpeechRecognitionResult] { state.withLock { $0.results } }
    /// The text of the final result, if one was delivered.
    package var finalText: String? {
        results.last(where: \.isFinal)?.bestTranscription.formattedString
    }
    /// How many terminal calls (final, error, didFinishSuccessfully) arrived.
    package var terminalCalls: Int { state.withLock { $0.terminalCount } }

    /// Whether every call ran on `queue`.
    package func allCallsRan(on queue: OperationQueue) -> Bool {
        state.withLock { state in state.queues.allSatisfy { $0 == ObjectIdentifier(queue) } }
    }

    /// A result handler recording into this recorder.
    package var handler: @Sendable (SFSpeechRecognitionResult?, (any Error)?) -> Void {
        { [self] result, error in
            if let result {
                record(.result(result.bestTranscription.formattedString, isFinal: result.isFinal), result: result,
                       terminal: result.isFinal)
            }
            if let error {
                let nsError = error as NSError
                record(.error(domain: nsError.domain, code: nsError.code), terminal: true)
            }
        }
    }

    /// Waits for the terminal call on the real engine, at most `seconds`;
    /// returns whether it arrived. (With a scripted backend, `drain()` instead.)
    package func completion(within seconds: Double) async -> Bool {
        let wait = Task { [self] in
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state in
                    if state.terminalCount > 0 { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if done { continuation.resume() }
            }
            return true
        }
        return await value(of: wait, within: seconds) ?? false
    }

    private func record(_ call: Call, result: SFSpeechRecognitionResult? = nil, terminal: Bool = false) {
        let queue = OperationQueue.current.map(ObjectIdentifier.init)
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.calls.append(call)
            if let result { state.results.append(result) }
            state.queues.append(queue)
            guard terminal else { return [] }
            state.terminalCount += 1
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    package func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask) {
        record(.detectedSpeech)
    }

    package func speechRecognitionTask(_ task: SFSpeechRecognitionTask,
                                      didHypothesizeTranscription transcription: SFTranscription) {
        record(.hypothesis(transcription.formattedString))
    }

    package func speechRecognitionTask(_ task: SFSpeechRecognitionTask,
                                      didFinishRecognition recognitionResult: SFSpeechRecognitionResult) {
        record(.finalRecognition(recognitionResult.bestTranscription.formattedString), result: recognitionResult)
    }

    package func speechRecognitionTaskFinishedReadingAudio(_ task: SFSpeechRecognitionTask) {
        record(.finishedReading)
    }

    package func speechRecognitionTaskWasCancelled(_ task: SFSpeechRecognitionTask) {
        record(.cancelled)
    }

    package func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool) {
        record(.finishedSuccessfully(successfully), terminal: true)
    }

    package func speechRecognitionTask(_ task: SFSpeechRecognitionTask,
                                      didProcessAudioDuration duration: TimeInterval) {
        record(.processed(duration))
    }
}
