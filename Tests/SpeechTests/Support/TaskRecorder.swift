import Foundation
@testable import Speech

/// Records what a recognition task delivers — handler calls or delegate
/// calls — with the queue each ran on, and waits for the terminal call.
final class TaskRecorder: NSObject, SFSpeechRecognitionTaskDelegate, @unchecked Sendable {
    /// One delivered call.
    enum Call: Equatable {
        case detectedSpeech
        case hypothesis(String)
        case processed(TimeInterval)
        case finishedReading
        case finalRecognition(String)
        case cancelled
        case finishedSuccessfully(Bool)
        case result(String, isFinal: Bool)
        case error(domain: String, code: Int)

        /// Handler/delegate calls without the progress ticks.
        var isProgress: Bool {
            if case .processed = self { return true }
            return false
        }
    }

    private let lock = NSLock()
    private var recorded: [Call] = []
    private var recordedResults: [SFSpeechRecognitionResult] = []
    private var queues: [OperationQueue?] = []
    private var terminalCount = 0

    /// The calls so far, in order.
    var calls: [Call] { lock.withLock { recorded } }
    /// The calls without progress ticks.
    var mainCalls: [Call] { calls.filter { !$0.isProgress } }
    /// The results delivered to the handler or delegate.
    var results: [SFSpeechRecognitionResult] { lock.withLock { recordedResults } }
    /// The queue current during each call.
    var deliveryQueues: [OperationQueue?] { lock.withLock { queues } }
    /// How many terminal calls (final, error, didFinishSuccessfully) arrived.
    var terminalCalls: Int { lock.withLock { terminalCount } }

    /// A result handler recording into this recorder.
    var handler: (SFSpeechRecognitionResult?, (any Error)?) -> Void {
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

    /// Waits until a terminal call arrived (or `seconds` passed); returns whether it did.
    @discardableResult
    func waitForCompletion(seconds: Double = 5) async -> Bool {
        await waitUntil(seconds: seconds) { terminalCalls > 0 }
    }

    /// Waits until `condition` holds (or `seconds` passed); returns whether it did.
    @discardableResult
    func waitUntil(seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
        return true
    }

    /// Lets queued deliveries run: waits a little and returns the calls.
    func settle() async -> [Call] {
        try? await Task.sleep(nanoseconds: 50_000_000)
        return calls
    }

    private func record(_ call: Call, result: SFSpeechRecognitionResult? = nil, terminal: Bool = false) {
        lock.withLock {
            recorded.append(call)
            if let result { recordedResults.append(result) }
            queues.append(OperationQueue.current)
            if terminal { terminalCount += 1 }
        }
    }

    func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask) {
        record(.detectedSpeech)
    }

    func speechRecognitionTask(_ task: SFSpeechRecognitionTask,
                               didHypothesizeTranscription transcription: SFTranscription) {
        record(.hypothesis(transcription.formattedString))
    }

    func speechRecognitionTask(_ task: SFSpeechRecognitionTask,
                               didFinishRecognition recognitionResult: SFSpeechRecognitionResult) {
        record(.finalRecognition(recognitionResult.bestTranscription.formattedString), result: recognitionResult)
    }

    func speechRecognitionTaskFinishedReadingAudio(_ task: SFSpeechRecognitionTask) {
        record(.finishedReading)
    }

    func speechRecognitionTaskWasCancelled(_ task: SFSpeechRecognitionTask) {
        record(.cancelled)
    }

    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool) {
        record(.finishedSuccessfully(successfully), terminal: true)
    }

    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didProcessAudioDuration duration: TimeInterval) {
        record(.processed(duration))
    }
}

/// A recognizer wired to a scripted session, delivering on its own serial queue.
func makeRecognizer(_ session: ScriptedSession, locale: String = "en-US",
                    authorization: SFSpeechRecognizerAuthorizationStatus = .authorized)
    -> (SFSpeechRecognizer, OperationQueue) {
    let recognizer = SFSpeechRecognizer(locale: Locale(identifier: locale))!
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    recognizer.queue = queue
    recognizer.sessionFactory = session.factory
    recognizer.authorizationStatusProvider = { authorization }
    recognizer.availabilityCheck = { _ in true }
    return (recognizer, queue)
}
