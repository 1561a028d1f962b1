import Foundation

/// The kind of speech a recognition request expects.
///
/// Set on a request (`taskHint`) or as the recognizer's `defaultTaskHint`.
/// - Note: On Linux the hint is accepted and kept; the Whisper engine decodes
///   all kinds of speech the same way, so it does not change results.
@available(iOS 10.0, macOS 10.15, *)
public enum SFSpeechRecognitionTaskHint: Int, @unchecked Sendable {
    /// An unspecified type of task.
    case unspecified = 0
    /// Arbitrary speech, as in dictation.
    case dictation = 1
    /// Identifying search terms.
    case search = 2
    /// Short commands such as "yes", "no" or "maybe".
    case confirmation = 3
}
