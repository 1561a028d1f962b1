import Foundation

/// Channel mixing for interleaved multichannel audio.
public enum Downmix {
    /// Averages the channels of interleaved audio into one channel.
    ///
    /// Averaging (not summing) keeps full-scale input within [-1, 1]. A trailing
    /// partial frame (fewer than `channelCount` samples) is dropped.
    ///
    /// - Shape: `interleaved` is `frames × channelCount` (`[l0, r0, l1, r1, …]`);
    ///   the result has `interleaved.count / channelCount` samples.
    /// - Precondition: `channelCount >= 1`.
    public static func mono(interleaved: [Float], channelCount: Int) -> [Float] {
        precondition(channelCount >= 1, "channelCount must be at least 1")
        if channelCount == 1 { return interleaved }
        let frameCount = interleaved.count / channelCount
        let scale = 1 / Float(channelCount)
        return [Float](unsafeUninitializedCapacity: frameCount) { output, initialized in
            interleaved.withUnsafeBufferPointer { input in
                for frame in 0..<frameCount {
                    var sum: Float = 0
                    let base = frame * channelCount
                    for channel in 0..<channelCount { sum += input[base + channel] }
                    output[frame] = sum * scale
                }
            }
            initialized = frameCount
        }
    }

    /// Averages planar (one array per channel) audio into one channel, as delivered by
    /// `AVAudioPCMBuffer.floatChannelData`-style buffers.
    ///
    /// - Shape: every channel holds the same number of frames; the result has that many.
    ///   Channels of unequal length are mixed over the shortest.
    public static func mono(planar channels: [[Float]]) -> [Float] {
        guard let first = channels.first else { return [] }
        if channels.count == 1 { return first }
        let frameCount = channels.map(\.count).min() ?? 0
        var mixed = [Float](repeating: 0, count: frameCount)
        for channel in channels {
            for frame in 0..<frameCount { mixed[frame] += channel[frame] }
        }
        let scale = 1 / Float(channels.count)
        for frame in 0..<frameCount { mixed[frame] *= scale }
        return mixed
    }
}
