import Foundation
import Speech

/// The legacy face on a `SpeechTestEnvironment`: recognizers wired to its
/// backends and scheduler, and buffer-request tasks recorded from the start.
extension SpeechTestEnvironment {
    /// A buffer request's task, its recorder and the backend under it.
    package struct BufferTask: Sendable {
        package let recognizer: SFSpeechRecognizer
        package let task: SFSpeechRecognitionTask
        package let request: SFSpeechAudioBufferRecognitionRequest
        package let recorder: TaskRecorder
        package let backend: ScriptedBackend
        /// The recognizer's delivery queue (serial unless the test changes it).
        package let queue: OperationQueue

        /// The task, its request and its recorder, for `let (task, request, recorder) = …`.
        package var parts: (SFSpeechRecognitionTask, SFSpeechAudioBufferRecognitionRequest, TaskRecorder) {
            (task, request, recorder)
        }
    }

    /// A recognizer on this environment: backends from `backend` (handed out
    /// for every task) or the environment's queue, this scheduler, the given
    /// permission, always available, delivering on its own serial queue.
    package func makeRecognizer(_ backend: ScriptedBackend? = nil, locale: String = "en-US",
                               authorization: SFSpeechRecognizerAuthorizationStatus = .authorized)
        -> (SFSpeechRecognizer, OperationQueue) {
        let recognizer = SFSpeechRecognizer(locale: Locale(identifier: locale))!
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        recognizer.queue = queue
        recognizer.scheduler = scheduler
        if let backend {
            let tracker = tracker
            recognizer.sessionFactory = RecognitionSessionFactory { locale, configuration in
                try configuration.validate(for: locale)
                return backend.handedOut(to: tracker, locale: locale, configuration: configuration)
            }
        } else {
            recognizer.sessionFactory = factory
        }
        recognizer.authorizationStatusProvider = { authorization }
        recognizer.availabilityCheck = { _ in true }
        return (recognizer, queue)
    }

    /// Starts a task on a new buffer request (set up by `configure` first)
    /// over `backend`, recorded through its delegate or its result handler.
    package func startBufferTask(on backend: ScriptedBackend, delegate: Bool = true,
                                 authorization: SFSpeechRecognizerAuthorizationStatus = .authorized,
                                 configure: (SFSpeechAudioBufferRecognitionRequest) -> Void = { _ in })
        -> BufferTask {
        let (recognizer, queue) = makeRecognizer(backend, authorization: authorization)
        let request = SFSpeechAudioBufferRecognitionRequest()
        configure(request)
        let recorder = TaskRecorder()
        let task = delegate ? recognizer.recognitionTask(with: request, delegate: recorder)
            : recognizer.recognitionTask(with: request, resultHandler: recorder.handler)
        return BufferTask(recognizer: recognizer, task: task, request: request, recorder: recorder, backend: backend, queue: queue)
    }
}
