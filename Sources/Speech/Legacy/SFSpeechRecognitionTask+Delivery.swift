import Foundation

extension SFSpeechRecognitionTask {
    /// What the task tells its handler or delegate, in order.
    enum Callback: @unchecked Sendable {
        // @unchecked: results and errors are immutable once posted.
        case detectedSpeech
        case partial(SFSpeechRecognitionResult)
        case processedAudio(TimeInterval)
        case finishedReading
        case final(SFSpeechRecognitionResult)
        case failure(any Error)
        case cancelled(any Error)
        /// Audio stopped early (a vanished capture device): the text so far
        /// and the error, in one terminal call.
        case interrupted(SFSpeechRecognitionResult?, any Error)

        var isTerminal: Bool {
            switch self {
            case .final, .failure, .cancelled, .interrupted: true
            default: false
            }
        }
    }

    /// Queues `callback` on the recognizer's queue after every earlier one.
    func post(_ callback: Callback) {
        delivery.submit { [self] in run(callback) }
    }

    /// Runs one callback on the delivery queue. Non-terminal callbacks are
    /// dropped once the task is cancelled (no results after `cancel()`); the
    /// terminal one completes the task and releases the handler.
    private func run(_ callback: Callback) {
        let receiver: Receiver? = lock.withLock {
            if callback.isTerminal {
                currentState = .completed
                defer { self.receiver = nil }
                return self.receiver
            }
            return cancelled ? nil : self.receiver
        }
        switch receiver {
        case .handler(let handler)?:
            switch callback {
            case .partial(let result), .final(let result): handler(result, nil)
            case .failure(let error), .cancelled(let error): handler(nil, error)
            // Both at once, as Apple's handler signature allows: apps read the
            // result first and stop on the error (the SpokenWord pattern).
            case .interrupted(let result, let error): handler(result, error)
            case .detectedSpeech, .processedAudio, .finishedReading: break
            }
        case .delegate(let reference)?:
            guard let delegate = reference.value else { return }
            switch callback {
            case .detectedSpeech:
                delegate.speechRecognitionDidDetectSpeech(self)
            case .partial(let result):
                delegate.speechRecognitionTask(self, didHypothesizeTranscription: result.bestTranscription)
            case .processedAudio(let seconds):
                delegate.speechRecognitionTask(self, didProcessAudioDuration: seconds)
            case .finishedReading:
                delegate.speechRecognitionTaskFinishedReadingAudio(self)
            case .final(let result):
                delegate.speechRecognitionTask(self, didFinishRecognition: result)
                delegate.speechRecognitionTask(self, didFinishSuccessfully: true)
            case .failure:
                delegate.speechRecognitionTask(self, didFinishSuccessfully: false)
            case .interrupted(let result, _):
                if let result { delegate.speechRecognitionTask(self, didFinishRecognition: result) }
                delegate.speechRecognitionTask(self, didFinishSuccessfully: false)
            case .cancelled:
                delegate.speechRecognitionTaskWasCancelled(self)
                delegate.speechRecognitionTask(self, didFinishSuccessfully: false)
            }
        case nil:
            break
        }
    }
}
