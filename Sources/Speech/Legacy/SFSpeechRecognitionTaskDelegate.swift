import Foundation

/// Receives the progress and results of a recognition task started with
/// `SFSpeechRecognizer.recognitionTask(with:delegate:)`.
///
/// Calls arrive on the recognizer's `queue`, in this order:
/// `speechRecognitionDidDetectSpeech` (once, when speech first appears),
/// `didHypothesizeTranscription` (partial results) interleaved with
/// `didProcessAudioDuration`, `speechRecognitionTaskFinishedReadingAudio`
/// (once audio input ends), `didFinishRecognition` (the final result), and
/// last, exactly once, `didFinishSuccessfully`. A cancelled task instead gets
/// `speechRecognitionTaskWasCancelled` then `didFinishSuccessfully(false)`.
/// The task does not retain its delegate: keep it alive yourself.
/// - Note: On Linux the optional requirements are normal requirements with
///   empty default implementations (Objective-C `optional` does not exist).
@available(iOS 10.0, macOS 10.15, *)
public protocol SFSpeechRecognitionTaskDelegate: NSObjectProtocol {
    /// The task first detected speech in the source audio.
    func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask)
    /// A hypothesized (partial) transcription is available.
    func speechRecognitionTask(_ task: SFSpeechRecognitionTask,
                               didHypothesizeTranscription transcription: SFTranscription)
    /// The final utterance was recognized; expect no more about it.
    func speechRecognitionTask(_ task: SFSpeechRecognitionTask,
                               didFinishRecognition recognitionResult: SFSpeechRecognitionResult)
    /// The task no longer accepts audio, though final processing may continue.
    func speechRecognitionTaskFinishedReadingAudio(_ task: SFSpeechRecognitionTask)
    /// The task was cancelled.
    func speechRecognitionTaskWasCancelled(_ task: SFSpeechRecognitionTask)
    /// Recognition of all requested utterances finished; `false` on error or
    /// cancellation (read `task.error`).
    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool)
    /// Seconds of audio processed so far.
    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didProcessAudioDuration duration: TimeInterval)
}

@available(iOS 10.0, macOS 10.15, *)
extension SFSpeechRecognitionTaskDelegate {
    /// Does nothing (optional on Apple platforms).
    public func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask) {}
    /// Does nothing (optional on Apple platforms).
    public func speechRecognitionTask(_ task: SFSpeechRecognitionTask,
                                      didHypothesizeTranscription transcription: SFTranscription) {}
    /// Does nothing (optional on Apple platforms).
    public func speechRecognitionTask(_ task: SFSpeechRecognitionTask,
                                      didFinishRecognition recognitionResult: SFSpeechRecognitionResult) {}
    /// Does nothing (optional on Apple platforms).
    public func speechRecognitionTaskFinishedReadingAudio(_ task: SFSpeechRecognitionTask) {}
    /// Does nothing (optional on Apple platforms).
    public func speechRecognitionTaskWasCancelled(_ task: SFSpeechRecognitionTask) {}
    /// Does nothing (optional on Apple platforms).
    public func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool) {}
    /// Does nothing (optional on Apple platforms).
    public func speechRecognitionTask(_ task: SFSpeechRecognitionTask,
                                      didProcessAudioDuration duration: TimeInterval) {}
}
