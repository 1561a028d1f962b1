import Foundation

/// The life cycle of a recognition task.
///
/// `starting → running → finishing → completed`, or `canceling → completed`
/// after `cancel()`. An error moves any state to `completed`.
/// - Note: On Linux `running` begins when the first audio is accepted (at
///   once for URL requests) and `finishing` when audio input ends
///   (`endAudio()`, `finish()`, end of file or the one-minute limit).
@available(iOS 10.0, macOS 10.15, *)
public enum SFSpeechRecognitionTaskState: Int, @unchecked Sendable {
    /// Recognition (possibly including recording) has not yet started.
    case starting = 0
    /// Recognition (possibly including recording) is in progress.
    case running = 1
    /// Audio recording stopped, but results may still be delivered.
    case finishing = 2
    /// Delivery of results finished, but audio recording may be ongoing.
    case canceling = 3
    /// Delivery of results finished and audio recording stopped.
    case completed = 4
}
