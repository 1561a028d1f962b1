// A first-in first-out queue of interleaved Float frames, holding converted
// audio until an output buffer has room for it.

/// Interleaved Float frames waiting to be delivered.
/// - Shape: `channels` samples per frame.
struct InterleavedSampleQueue {
    /// Samples per frame.
    let channels: Int
    private var samples: [Float] = []
    private var readIndex = 0

    /// Creates an empty queue.
    init(channels: Int) { self.channels = channels }

    /// Frames waiting.
    var frameCount: Int { (samples.count - readIndex) / channels }

    /// Appends interleaved frames.
    mutating func append(_ interleaved: [Float]) { samples.append(contentsOf: interleaved) }

    /// Appends `frames` frames of silence.
    mutating func appendSilence(frames: Int) {
        samples.append(contentsOf: repeatElement(0, count: frames * channels))
    }

    /// Drops frames from the end of the queue (at most the frames waiting).
    mutating func dropLast(frames: Int) {
        let dropped = min(frames, frameCount) * channels
        samples.removeLast(dropped)
    }

    /// Moves up to `maxFrames` frames into `buffer` starting at `startFrame`,
    /// converting to its format; returns the frames moved.
    mutating func dequeue(into buffer: AVAudioPCMBuffer, startFrame: Int, maxFrames: Int) -> Int {
        let frames = min(maxFrames, frameCount)
        guard frames > 0 else { return 0 }
        if channels == 1 {
            samples.withUnsafeBufferPointer { pointer in
                buffer.writeFloats(channel: 0, startFrame: startFrame, frameCount: frames, from: pointer.baseAddress! + readIndex)
            }
            consume(frames)
            return frames
        }
        var plane = [Float](repeating: 0, count: frames)
        for channel in 0..<channels {
            for frame in 0..<frames { plane[frame] = samples[readIndex + frame * channels + channel] }
            plane.withUnsafeBufferPointer { pointer in
                buffer.writeFloats(channel: channel, startFrame: startFrame, frameCount: frames, from: pointer.baseAddress!)
            }
        }
        consume(frames)
        return frames
    }

    /// Advances past delivered frames, compacting the storage now and then.
    private mutating func consume(_ frames: Int) {
        readIndex += frames * channels
        if readIndex > 65_536 && readIndex * 2 > samples.count {
            samples.removeFirst(readIndex)
            readIndex = 0
        }
    }
}
