import Foundation
import Speech

/// A recognition task of `ModernBackedSpeechRecognizer`: the shape of
/// `SFSpeechRecognitionTask` (state, `finish()`, `cancel()`, `error`) over a
/// `SpeechAnalyzer` running a `SpeechTranscriber`.
///
/// The handler gets partial results (cumulative, confidence 0, as the legacy
/// face delivers them), then one final result or one error, on the
/// recognizer's `queue`, in order. Errors keep the legacy shapes: no speech
/// is `kAFAssistantErrorDomain` 1110, cancellation `kLSRErrorDomain` 301;
/// errors the analyzer throws (`SFSpeechError`) are passed on as they are.
/// - Note: Unmapped: `SFSpeechRecognitionMetadata` (speaking rate, pauses,
///   voice analytics) has no modern counterpart and is always nil;
///   per-segment `alternativeSubstrings` are empty (the modern transcriber
///   gives whole alternative phrases, which become `transcriptions[1...]`).
public final class ModernBackedRecognitionTask: @unchecked Sendable {
    // @unchecked: mutable state is behind `lock`; callbacks are serialized by `ordering`.

    /// Where results go.
    enum Receiver {
        case handler((SFSpeechRecognitionResult?, (any Error)?) -> Void)
        case delegate(Weak)
    }

    /// A weak delegate reference (the task does not retain its delegate).
    final class Weak {
        weak var value: (any ModernBackedRecognitionTaskDelegate)?
        init(_ value: any ModernBackedRecognitionTaskDelegate) { self.value = value }
    }

    let lock = NSLock()
    let request: ModernBackedRecognitionRequest
    let queue: OperationQueue
    private let ordering = DispatchQueue(label: "SpeechMigration.ModernBackedRecognitionTask")
    var receiver: Receiver?
    var currentState: SFSpeechRecognitionTaskState = .starting
    var finishing = false
    var cancelled = false
    var terminated = false
    var currentError: (any Error)?
    var analyzer: SpeechAnalyzer?
    var worker: Task<Void, Never>?

    init(request: ModernBackedRecognitionRequest, receiver: Receiver, queue: OperationQueue) {
        self.request = request
        self.receiver = receiver
        self.queue = queue
    }

    /// The task's state: `starting → running → finishing → completed`, or
    /// `canceling → completed`.
    public var state: SFSpeechRecognitionTaskState { lock.withLock { currentState } }
    /// Whether audio input has ended.
    public var isFinishing: Bool { lock.withLock { finishing } }
    /// Whether the task was cancelled.
    public var isCancelled: Bool { lock.withLock { cancelled } }
    /// The error that ended the task, if any.
    public var error: (any Error)? { lock.withLock { currentError } }

    /// Stops taking audio and finishes recognizing what arrived; the final
    /// result is delivered.
    public func finish() {
        guard lock.withLock({ !terminated }) else { return }
        request.stopAudio()
    }

    /// Cancels: no further results; the handler gets one `kLSRErrorDomain`
    /// 301 error, a delegate `speechRecognitionTaskWasCancelled` then
    /// `didFinishSuccessfully(false)`.
    public func cancel() {
        let error = NSError(domain: "kLSRErrorDomain", code: 301,
                            userInfo: [NSLocalizedDescriptionKey: "Recognition request was canceled."])
        let (proceed, analyzer): (Bool, SpeechAnalyzer?) = lock.withLock {
            guard !terminated else { return (false, nil) }
            terminated = true
            cancelled = true
            currentState = .canceling
            currentError = error
            return (true, self.analyzer)
        }
        guard proceed else { return }
        request.stopAudio()
        worker?.cancel()
        if let analyzer { Task { await analyzer.cancelAndFinishNow() } }
        deliver(terminal: true) { task, receiver in
            switch receiver {
            case .handler(let handler): handler(nil, error)
            case .delegate(let weak):
                weak.value?.speechRecognitionTaskWasCancelled(task)
                weak.value?.speechRecognitionTask(task, didFinishSuccessfully: false)
            }
        }
    }

    /// Runs `body` on `queue` after every earlier callback. A terminal
    /// callback completes the task and releases the receiver; non-terminal
    /// ones are dropped after cancellation.
    func deliver(terminal: Bool, _ body: @escaping (ModernBackedRecognitionTask, Receiver) -> Void) {
        nonisolated(unsafe) let body = body
        ordering.async { [self] in
            let done = DispatchSemaphore(value: 0)
            queue.addOperation { [self] in
                defer { done.signal() }
                let receiver: Receiver? = lock.withLock {
                    if terminal {
                        currentState = .completed
                        defer { self.receiver = nil }
                        return self.receiver
                    }
                    return cancelled ? nil : self.receiver
                }
                if let receiver { body(self, receiver) }
            }
            done.wait()
        }
    }
}
