import Foundation

/// A running recognition: its state, and the way to finish or cancel it.
///
/// Created by `SFSpeechRecognizer.recognitionTask(with:resultHandler:)` or
/// `recognitionTask(with:delegate:)`. Results, errors and delegate calls
/// arrive on the recognizer's `queue`. States go `starting → running →
/// finishing → completed`, or `canceling → completed` after `cancel()`; an
/// error completes the task with `error` set. The handler receives partial
/// results, then exactly one final result or one error.
/// - Note: On Linux the task runs the Whisper engine in-process: a buffer
///   request through its streaming recognizer, a URL request decoded as a
///   file. The task keeps itself alive until it completes; it does not
///   retain its delegate.
@available(iOS 10.0, macOS 10.15, *)
open class SFSpeechRecognitionTask: NSObject, @unchecked Sendable {
    // @unchecked: mutable state is behind `lock`; callbacks run on `delivery`.

    /// Where results go: a handler block, or a delegate held weakly.
    enum Receiver {
        case handler((SFSpeechRecognitionResult?, (any Error)?) -> Void)
        case delegate(WeakDelegate)
    }

    /// A weak reference to the task's delegate (Apple's task does not retain it).
    final class WeakDelegate {
        weak var value: (any SFSpeechRecognitionTaskDelegate)?
        init(_ value: any SFSpeechRecognitionTaskDelegate) { self.value = value }
    }

    let lock = NSLock()
    let request: SFSpeechRecognitionRequest
    let delivery: DeliveryQueue
    /// Where the task's hops run (the system's; a test's manual one).
    let scheduler: BridgeScheduler
    /// The audio's voice features; nil for on-device tasks (no analytics).
    let voice: VoiceAnalyzer?

    var currentState: SFSpeechRecognitionTaskState = .starting
    var finishing = false
    var cancelled = false
    var currentError: (any Error)?
    /// Why audio stopped early (a vanished capture device): the task ends
    /// with this error, after recognizing the audio it got.
    var interruption: (any Error)?
    /// The outcome (final result, error or cancellation) has been decided.
    var terminated = false
    /// Cleared when the terminal callback runs, releasing the handler.
    var receiver: Receiver?
    var session: (any RecognitionBackend)?
    var finals: [RecognizedSpan] = []
    var volatile: RecognizedSpan?
    /// Seconds of audio handed to the session (the one-minute limit counts them).
    var appendedSeconds = 0.0
    /// The next stream time at which a server-style task stops or rolls over.
    var nextLimitSeconds: Double?
    /// A server-style task reached its limit: later audio is dropped.
    var stoppedAtLimit = false
    /// The audio is a recording (a URL request): each window's final is shown as a partial.
    var isRecording = false
    var detectedSpeech = false
    var reportedFinishedReading = false
    var lastPartialText: String?

    init(request: SFSpeechRecognitionRequest, receiver: Receiver, queue: OperationQueue,
         scheduler: BridgeScheduler = .system) {
        self.request = request
        self.receiver = receiver
        self.scheduler = scheduler
        self.delivery = DeliveryQueue(queue: queue, scheduler: scheduler)
        self.voice = request.requiresOnDeviceRecognition ? nil : VoiceAnalyzer()
        super.init()
    }

    /// The task's current state.
    open var state: SFSpeechRecognitionTaskState {
        lock.withLock { currentState }
    }

    /// Whether audio input has stopped (`endAudio()`, `finish()`, end of
    /// file or the one-minute limit).
    open var isFinishing: Bool {
        lock.withLock { finishing }
    }

    /// Whether the task was cancelled.
    open var isCancelled: Bool {
        lock.withLock { cancelled }
    }

    /// The error that ended the task, if any: an `NSError` in
    /// `kAFAssistantErrorDomain` (1110 no speech, 203, 1700 not authorized …)
    /// or `kLSRErrorDomain` (301 cancelled, 102 assets not installed …), or
    /// an `SFSpeechError`.
    open var error: (any Error)? {
        lock.withLock { currentError }
    }

    /// Stops accepting new audio and finishes recognizing what was accepted;
    /// the final result is delivered. No effect on a completed or cancelled task.
    open func finish() {
        let proceed = lock.withLock { !terminated && !cancelled }
        guard proceed else { return }
        noteEndOfAudio()
        request.stopProducingAudio()
    }

    /// Cancels recognition: no further results; the handler gets one
    /// `kLSRErrorDomain` 301 error, a delegate `speechRecognitionTaskWasCancelled`
    /// then `didFinishSuccessfully(false)`. No effect on a completed task.
    open func cancel() {
        let cancelledError = ErrorMapping.Legacy.cancelled.error()
        let (proceed, session): (Bool, (any RecognitionBackend)?) = lock.withLock {
            guard !terminated else { return (false, nil) }
            terminated = true
            cancelled = true
            currentState = .canceling
            currentError = cancelledError
            return (true, self.session)
        }
        guard proceed else { return }
        request.feed.close()
        session?.cancel()
        post(.cancelled(cancelledError))
    }

    /// The state, the finishing and cancel flags.
    open override var description: String {
        lock.withLock {
            "SFSpeechRecognitionTask(state: \(currentState.rawValue), isFinishing: \(finishing), isCancelled: \(cancelled))"
        }
    }
}
