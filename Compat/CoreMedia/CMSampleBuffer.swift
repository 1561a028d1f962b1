// CMSampleBuffer: timed media samples, reduced to audio: a block buffer of
// PCM (or packet) bytes, its format and its timing (API.md §2.14).

import Foundation

/// A count of items (samples) in a sample buffer.
public typealias CMItemCount = Int

/// A buffer of timed media samples.
///
/// On Apple platforms this is a Core Foundation type built with
/// `CMSampleBufferCreate` and block buffers; readers such as
/// `AVAssetReaderTrackOutput` hand them out.
/// - Note: On Linux it holds audio only, in one contiguous `CMBlockBuffer`:
///   PCM bytes laid out as its `AudioStreamBasicDescription` says
///   (interleaved, or one channel plane after another when non-interleaved).
///   Build one with `CMSampleBuffer(audioData:streamDescription:sampleCount:presentationTimeStamp:)`
///   or, from AVFoundation, `CMSampleBuffer(pcmBuffer:presentationTimeStamp:)`.
public final class CMSampleBuffer: @unchecked Sendable {
    // @unchecked: immutable after creation; the block buffer's bytes are
    // only written while the sample buffer is built.

    /// The bytes of the samples.
    public let dataBuffer: CMBlockBuffer?
    /// The format of the samples.
    public let formatDescription: CMFormatDescription?
    /// When the first sample is presented.
    public let presentationTimeStamp: CMTime
    /// How long the samples last.
    public let duration: CMTime
    /// The number of samples (audio frames).
    public let numSamples: CMItemCount
    /// Where each channel plane starts in `dataBuffer` (one entry for
    /// interleaved or compressed audio).
    let planeOffsets: [Int]
    /// The bytes of one plane's valid samples.
    let planeByteCount: Int

    /// Creates an audio sample buffer (a SpeechCompat convenience; not an Apple
    /// API). Non-interleaved PCM is one channel plane after another. The
    /// duration is `sampleCount / sampleRate` in the stream's rate.
    public convenience init(audioData: Data, streamDescription: AudioStreamBasicDescription, sampleCount: Int,
                            presentationTimeStamp: CMTime) {
        let layout = CMSampleBuffer.packedLayout(streamDescription, sampleCount: sampleCount, dataLength: audioData.count)
        self.init(dataBuffer: CMBlockBuffer(copying: audioData), streamDescription: streamDescription,
                  sampleCount: sampleCount, presentationTimeStamp: presentationTimeStamp,
                  planeOffsets: layout.offsets, planeByteCount: layout.planeBytes)
    }

    /// Creates a sample buffer over a block buffer whose planes start at
    /// `planeOffsets`.
    init(dataBuffer: CMBlockBuffer, streamDescription: AudioStreamBasicDescription, sampleCount: Int,
         presentationTimeStamp: CMTime, planeOffsets: [Int], planeByteCount: Int) {
        self.dataBuffer = dataBuffer
        self.formatDescription = CMFormatDescription(audioStreamBasicDescription: streamDescription)
        self.presentationTimeStamp = presentationTimeStamp
        self.numSamples = sampleCount
        self.planeOffsets = planeOffsets
        self.planeByteCount = planeByteCount
        let rate = CMTimeScale(exactly: streamDescription.mSampleRate.rounded()) ?? 0
        self.duration = rate > 0 ? CMTime(value: CMTimeValue(sampleCount), timescale: rate) : .invalid
    }

    /// Plane offsets for bytes packed one plane after another.
    static func packedLayout(_ description: AudioStreamBasicDescription, sampleCount: Int,
                             dataLength: Int) -> (offsets: [Int], planeBytes: Int) {
        let isPCM = description.mFormatID == kAudioFormatLinearPCM
        let planar = isPCM && description.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0
            && description.mChannelsPerFrame > 1
        guard isPCM else { return ([0], dataLength) }
        let planeBytes = sampleCount * Int(description.mBytesPerFrame)
        let planes = planar ? Int(description.mChannelsPerFrame) : 1
        return ((0..<planes).map { $0 * planeBytes }, planeBytes)
    }

    /// A copy of the sample bytes (the planes, without alignment padding).
    public var audioData: Data {
        guard let dataBuffer else { return Data() }
        var data = Data(capacity: planeByteCount * planeOffsets.count)
        for offset in planeOffsets {
            data.append(UnsafeRawPointer(dataBuffer.bytes + offset).assumingMemoryBound(to: UInt8.self),
                        count: min(planeByteCount, dataBuffer.dataLength - offset))
        }
        return data
    }

    /// The total size of the samples in bytes.
    public var totalSampleSize: Int { planeByteCount * planeOffsets.count }

    /// The output presentation time: the same as `presentationTimeStamp`
    /// (Linux sample buffers carry no edits or trims).
    public var outputPresentationTimeStamp: CMTime { presentationTimeStamp }

    /// The decode time stamp: invalid, as for uncompressed audio on Apple platforms.
    public var decodeTimeStamp: CMTime { .invalid }

    /// Whether the buffer's data is ready (always true on Linux).
    public var dataIsReady: Bool { true }

    /// Whether the buffer is valid (always true on Linux).
    public var isValid: Bool { true }
}

/// The presentation time of the first sample.
public func CMSampleBufferGetPresentationTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.presentationTimeStamp }
/// The output presentation time of the first sample.
public func CMSampleBufferGetOutputPresentationTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime {
    sbuf.outputPresentationTimeStamp
}
/// The decode time of the first sample (invalid for audio).
public func CMSampleBufferGetDecodeTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.decodeTimeStamp }
/// The duration of all samples.
public func CMSampleBufferGetDuration(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.duration }
/// The output duration of all samples (the same as the duration on Linux).
public func CMSampleBufferGetOutputDuration(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.duration }
/// The number of samples.
public func CMSampleBufferGetNumSamples(_ sbuf: CMSampleBuffer) -> CMItemCount { sbuf.numSamples }
/// The total size of the samples in bytes.
public func CMSampleBufferGetTotalSampleSize(_ sbuf: CMSampleBuffer) -> Int { sbuf.totalSampleSize }
/// The format description of the samples.
public func CMSampleBufferGetFormatDescription(_ sbuf: CMSampleBuffer) -> CMFormatDescription? { sbuf.formatDescription }
/// The block buffer holding the samples' bytes.
public func CMSampleBufferGetDataBuffer(_ sbuf: CMSampleBuffer) -> CMBlockBuffer? { sbuf.dataBuffer }
/// Whether the sample buffer's data is ready.
public func CMSampleBufferDataIsReady(_ sbuf: CMSampleBuffer) -> Bool { sbuf.dataIsReady }
/// Whether the sample buffer is still valid.
public func CMSampleBufferIsValid(_ sbuf: CMSampleBuffer) -> Bool { sbuf.isValid }
