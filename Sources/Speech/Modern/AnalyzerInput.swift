import AVFoundation
import CoreMedia
import Foundation

/// One buffer of audio for a `SpeechAnalyzer`, with an optional time-code.
///
/// The buffer must already be in a format the analyzer's modules accept
/// (`SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith:)`): the analyzer
/// never converts buffer input. The format may change from one input to the
/// next. Without a time-code a buffer follows the previous one (the first
/// starts at 0). With one, it must not overlap or precede earlier input; a
/// gap is allowed and means silence. The time-code's timescale need not be
/// the sample rate; `CMTime(value: avAudioTime.sampleTime, timescale:
/// CMTimeScale(avAudioTime.sampleRate))` converts an `AVAudioTime`.
/// - Note: On Linux the accepted formats are 16 kHz mono Int16 and Float32;
///   other buffers fail the analysis with
///   `SFSpeechError.Code.unexpectedAudioFormat`. Gaps up to 2 s are analyzed
///   as silence; longer gaps start a new recognition session.
@available(macOS 26.0, iOS 26.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public struct AnalyzerInput: @unchecked Sendable {
    // @unchecked: `AVAudioPCMBuffer` is a mutable class, as on Apple
    // platforms; the analyzer reads the buffer once, when it consumes it.

    /// The audio.
    public let buffer: AVAudioPCMBuffer

    /// The time-code of the buffer's first sample on the analyzer's timeline,
    /// or `nil` to follow the previous buffer.
    public let bufferStartTime: CMTime?

    /// An input that follows the previous one (or starts at 0).
    public init(buffer: AVAudioPCMBuffer) {
        self.init(buffer: buffer, bufferStartTime: nil)
    }

    /// An input with an explicit time-code; `nil` follows the previous input.
    public init(buffer: AVAudioPCMBuffer, bufferStartTime: CMTime?) {
        self.buffer = buffer
        self.bufferStartTime = bufferStartTime
    }
}
