import CoreMedia
import Foundation

/// What every module result has: the audio it covers and how much of the
/// module's output is final.
///
/// Results with `resultsFinalizationTime >= range.end` are final; earlier
/// results from the same module are then final too. A volatile result may be
/// replaced by a later result over the same range.
///
/// The usual way to show a live transcript keeps final text and replaces
/// volatile text:
///
/// ```swift
/// if result.isFinal { finalized += result.text; volatile = AttributedString() }
/// else { volatile = result.text }
/// ```
@available(macOS 26.0, iOS 26.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public protocol SpeechModuleResult {
    /// The range of input audio this result describes, on the analyzer's
    /// timeline (time 0 is the first sample, or the first input's
    /// `bufferStartTime`).
    var range: CMTimeRange { get }

    /// The module's results are final up to (not including) this time.
    ///
    /// A module need not re-send a result that finalization left unchanged,
    /// so this time can pass a volatile result's end without a new result.
    var resultsFinalizationTime: CMTime { get }
}

@available(macOS 26.0, iOS 26.0, *)
extension SpeechModuleResult {
    /// Whether this result is final: no later result will cover its range.
    ///
    /// `false` does not promise that the range will be re-issued as final.
    public var isFinal: Bool {
        resultsFinalizationTime >= range.end
    }
}
