import Foundation
import Speech

/// The delegate of a `ModernBackedRecognitionTask`: the methods of
/// `SFSpeechRecognitionTaskDelegate`, with the adapter's task type.
///
/// Calls arrive on the recognizer's `queue` in the legacy order:
/// `speechRecognitionDidDetectSpeech` once, `didHypothesizeTranscription`
/// for partial results, `speechRecognitionTaskFinishedReadingAudio`,
/// `didFinishRecognition`, then `didFinishSuccessfully` exactly once; a
/// cancelled task gets `speechRecognitionTaskWasCancelled` then
/// `didFinishSuccessfully(false)`. Every method has an empty default.
/// - Note: Unmapped: `didProcessAudioDuration` is not called (the analyzer
///   reports progress as a volatile range, not as processed seconds).
public protocol ModernBackedRecognitionTaskDelegate: AnyObject {
    /// Speech first appeared in the audio.
    func speechRecognitionDidDetectSpeech(_ task: ModernBackedRecognitionTask)
    /// A partial (cumulative) transcription is available.
    func speechRecognitionTask(_ task: ModernBackedRecognitionTask,
                               didHypothesizeTranscription transcription: SFTranscription)
    /// The final result.
    func speechRecognitionTask(_ task: ModernBackedRecognitionTask,
                               didFinishRecognition recognitionResult: SFSpeechRecognitionResult)
    /// The task takes no more audio.
    func speechRecognitionTaskFinishedReadingAudio(_ task: ModernBackedRecognitionTask)
    /// The task was cancelled.
    func speechRecognitionTaskWasCancelled(_ task: ModernBackedRecognitionTask)
    /// The task ended; `false` on error or cancellation (read `task.error`).
    func speechRecognitionTask(_ task: ModernBackedRecognitionTask, didFinishSuccessfully successfully: Bool)
}

extension ModernBackedRecognitionTaskDelegate {
    /// Does nothing.
    public func speechRecognitionDidDetectSpeech(_ task: ModernBackedRecognitionTask) {}
    /// Does nothing.
    public func speechRecognitionTask(_ task: ModernBackedRecognitionTask,
                                      didHypothesizeTranscription transcription: SFTranscription) {}
    /// Does nothing.
    public func speechRecognitionTask(_ task: ModernBackedRecognitionTask,
                                      didFinishRecognition recognitionResult: SFSpeechRecognitionResult) {}
    /// Does nothing.
    public func speechRecognitionTaskFinishedReadingAudio(_ task: ModernBackedRecognitionTask) {}
    /// Does nothing.
    public func speechRecognitionTaskWasCancelled(_ task: ModernBackedRecognitionTask) {}
    /// Does nothing.
    public func speechRecognitionTask(_ task: ModernBackedRecognitionTask, didFinishSuccessfully successfully: Bool) {}
}
