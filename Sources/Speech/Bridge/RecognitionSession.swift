import Foundation
import SpeechEngine

/// The one seam between the Apple faces and the engine: feed 16 kHz mono
/// samples, read one ordered stream of `StreamingEvent`s.
///
/// The real implementation wraps the engine's streaming recognizer; tests of
/// delegate order and cancellation use a scripted fake that replays events.
protocol RecognitionSession: AnyObject, Sendable {
    /// Events in order; ends after `.finished` or `.failed`.
    var events: AsyncStream<StreamingEvent> { get }
    /// Appends 16 kHz mono samples following the ones already appended.
    func append(_ samples: [Float])
    /// No more audio: finalize what is pending, then `.finished`.
    func finish()
    /// Stop now: no further results; the stream ends with `.failed(.cancelled)`.
    func cancel()
}
