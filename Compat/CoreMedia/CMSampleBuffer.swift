// CMSampleBuffer: timed media samples, reduced to what
// `appendAudioSampleBuffer(_:)` needs: a PCM payload, its format and its
// presentation time (API.md §2.14).

import Foundation

/// A count of items (samples) in a sample buffer.
public typealias CMItemCount = Int

/// A buffer of timed media samples.
///
/// On Apple platforms this is a Core Foundation type built with
/// `CMSampleBufferCreate` and block buffers.
/// - Note: On Linux it holds uncompressed audio only: PCM bytes laid out as
///   its `AudioStreamBasicDescription` says (interleaved, or one channel after
///   another when non-interleaved). Build one with
///   `CMSampleBuffer(audioData:streamDescription:sampleCount:presentationTimeStamp:)`
///   or, from AVFoundation, `CMSampleBuffer(pcmBuffer:presentationTimeStamp:)`.
public final class CMSampleBuffer: @unchecked Sendable {
    /// The PCM bytes.
    public let audioData: Data
    /// The format of `audioData`.
    public let formatDescription: CMFormatDescription?
    /// When the first sample is presented.
    public let presentationTimeStamp: CMTime
    /// How long the samples last.
    public let duration: CMTime
    /// The number of samples (audio frames).
    public let numSamples: CMItemCount

    /// Creates an audio sample buffer (a SpeechCompat convenience; not an Apple
    /// API). The duration is `sampleCount / sampleRate` in the stream's rate.
    public init(audioData: Data, streamDescription: AudioStreamBasicDescription, sampleCount: Int,
                presentationTimeStamp: CMTime) {
        self.audioData = audioData
        self.formatDescription = CMFormatDescription(audioStreamBasicDescription: streamDescription)
        self.presentationTimeStamp = presentationTimeStamp
        self.numSamples = sampleCount
        let rate = CMTimeScale(exactly: streamDescription.mSampleRate.rounded()) ?? 0
        self.duration = rate > 0 ? CMTime(value: CMTimeValue(sampleCount), timescale: rate) : .invalid
    }

    /// The total size of the samples in bytes.
    public var totalSampleSize: Int { audioData.count }

    /// The output presentation time: the same as `presentationTimeStamp`
    /// (Linux sample buffers carry no edits or trims).
    public var outputPresentationTimeStamp: CMTime { presentationTimeStamp }

    /// Whether the buffer's data is ready (always true on Linux).
    public var dataIsReady: Bool { true }

    /// Whether the buffer is valid (always true on Linux).
    public var isValid: Bool { true }
}

/// The presentation time of the first sample.
public func CMSampleBufferGetPresentationTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.presentationTimeStamp }
/// The duration of all samples.
public func CMSampleBufferGetDuration(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.duration }
/// The number of samples.
public func CMSampleBufferGetNumSamples(_ sbuf: CMSampleBuffer) -> CMItemCount { sbuf.numSamples }
/// The total size of the samples in bytes.
public func CMSampleBufferGetTotalSampleSize(_ sbuf: CMSampleBuffer) -> Int { sbuf.totalSampleSize }
/// The format description of the samples.
public func CMSampleBufferGetFormatDescription(_ sbuf: CMSampleBuffer) -> CMFormatDescription? { sbuf.formatDescription }
