import Foundation

/// The one-minute limit of server-based recognition, and the rolling mode.
///
/// Apple: "the framework stops speech recognition tasks that last longer than
/// one minute". SpeechCompat reproduces that for tasks that do not require
/// on-device recognition: at the limit the task stops reading audio, reports
/// `speechRecognitionTaskFinishedReadingAudio`, and delivers its final result
/// for the first minute. On-device tasks have no limit.
///
/// These two properties are **Linux extensions** (Apple has only private SPI
/// for this); Apple-platform code never sees them.
extension SFSpeechRecognitionRequest {
    /// Seconds of audio a server-style task recognizes before it stops;
    /// default 60. Ignored when `requiresOnDeviceRecognition` is true.
    /// - Note: Linux extension, not part of Apple's API.
    public var maximumRecognitionDuration: TimeInterval {
        get { storedMaximumRecognitionDuration }
        set { storedMaximumRecognitionDuration = max(1, newValue) }
    }

    /// Rolling mode, off by default: instead of stopping at
    /// `maximumRecognitionDuration`, the engine finalizes each stretch at the
    /// limit and keeps recognizing, so long audio yields a complete
    /// transcript with no word lost or repeated at the seams. The task still
    /// delivers partial results as usual and one final result at the end.
    /// - Note: Linux extension, not part of Apple's API.
    public var rollsOverAtRecognitionLimit: Bool {
        get { storedRollsOverAtLimit }
        set { storedRollsOverAtLimit = newValue }
    }
}
