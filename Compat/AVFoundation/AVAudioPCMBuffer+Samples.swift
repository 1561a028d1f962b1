// Sample access in a common currency (Float, nominally in [-1, 1]) for the
// file, converter and engine code. Internal: not part of Apple's API.

extension AVAudioPCMBuffer {
    /// Reads `frameCount` frames of one channel from `startFrame` into
    /// `destination`, converting to Float (integers scale by 1/2^(bits-1)).
    func readFloats(channel: Int, startFrame: Int, frameCount: Int,
                    into destination: UnsafeMutablePointer<Float>) {
        precondition(channel < Int(format.channelCount) && startFrame + frameCount <= Int(frameCapacity))
        let step = stride
        if step == 1, let data = floatChannelData {
            destination.update(from: data[channel] + startFrame, count: frameCount)
            return
        }
        func copy<Sample>(_ data: UnsafePointer<UnsafeMutablePointer<Sample>>?, _ toFloat: (Sample) -> Float) {
            guard let source = data?[channel] else { return }
            for frame in 0..<frameCount { destination[frame] = toFloat(source[(startFrame + frame) * step]) }
        }
        switch format.commonFormat {
        case .pcmFormatFloat32: copy(floatChannelData) { $0 }
        case .pcmFormatFloat64: copy(float64ChannelData) { Float($0) }
        case .pcmFormatInt16: copy(int16ChannelData) { Float($0) * (1 / 32_768) }
        case .pcmFormatInt32: copy(int32ChannelData) { Float(Double($0) * (1 / 2_147_483_648)) }
        case .otherFormat: break
        }
    }

    /// Writes `frameCount` Float samples into one channel from `startFrame`,
    /// converting to the buffer's format (integers round and clip).
    func writeFloats(channel: Int, startFrame: Int, frameCount: Int, from source: UnsafePointer<Float>) {
        precondition(channel < Int(format.channelCount) && startFrame + frameCount <= Int(frameCapacity))
        let step = stride
        if step == 1, let data = floatChannelData {
            (data[channel] + startFrame).update(from: source, count: frameCount)
            return
        }
        func copy<Sample>(_ data: UnsafePointer<UnsafeMutablePointer<Sample>>?, _ fromFloat: (Float) -> Sample) {
            guard let destination = data?[channel] else { return }
            for frame in 0..<frameCount { destination[(startFrame + frame) * step] = fromFloat(source[frame]) }
        }
        switch format.commonFormat {
        case .pcmFormatFloat32: copy(floatChannelData) { $0 }
        case .pcmFormatFloat64: copy(float64ChannelData) { Double($0) }
        case .pcmFormatInt16: copy(int16ChannelData) { pcmInteger(Double($0), scale: 32_768) }
        case .pcmFormatInt32: copy(int32ChannelData) { pcmInteger(Double($0), scale: 2_147_483_648) }
        case .otherFormat: break
        }
    }

    /// The valid frames of every channel as Float arrays (`[channel][frame]`).
    func planarFloats() -> [[Float]] {
        let frames = Int(frameLength)
        return (0..<Int(format.channelCount)).map { channel in
            [Float](unsafeUninitializedCapacity: frames) { storage, count in
                if let base = storage.baseAddress { readFloats(channel: channel, startFrame: 0, frameCount: frames, into: base) }
                count = frames
            }
        }
    }

    /// Writes planar Float samples at `startFrame`; all channels must have the
    /// same length. Does not change `frameLength`.
    func writePlanarFloats(_ channels: [[Float]], startFrame: Int) {
        precondition(channels.count == Int(format.channelCount), "channel count mismatch")
        for (index, samples) in channels.enumerated() {
            samples.withUnsafeBufferPointer { pointer in
                if let base = pointer.baseAddress {
                    writeFloats(channel: index, startFrame: startFrame, frameCount: samples.count, from: base)
                }
            }
        }
    }
}

/// A float sample as a rounded, clipped integer sample: `x × scale` clamped to
/// `[-scale, scale - 1]`.
func pcmInteger<Sample: FixedWidthInteger>(_ value: Double, scale: Double) -> Sample {
    let scaled = (value * scale).rounded(.toNearestOrAwayFromZero)
    if scaled.isNaN { return 0 }
    if scaled >= scale - 1 { return Sample(scale - 1) }
    if scaled <= -scale { return Sample(-scale) }
    return Sample(scaled)
}
