// Output settings → the PCM format a track decoder produces, and the packing
// of 24-bit samples (no AVAudioCommonFormat holds them).

extension AudioTrackDecoder {
    /// The converter's output format, and whether its Int32 samples are then
    /// packed into 24-bit integers.
    struct Target {
        var format: AVAudioFormat
        var packs24Bit: Bool
    }

    /// What `settings` ask for; `nil` settings keep the file's PCM format.
    static func targetFormat(settings: [String: Any]?, fileFormat: AVAudioFormat) throws -> Target {
        let rate = fileFormat.sampleRate
        let channels = fileFormat.channelCount
        guard let settings else {
            let common: AVAudioCommonFormat
            switch (fileFormat.formatID == kAudioFormatLinearPCM, fileFormat.bitDepth, fileFormat.isFloat) {
            case (true, 8, false), (true, 16, false): common = .pcmFormatInt16
            case (true, 24, false): return try target(.pcmFormatInt32, rate, channels, interleaved: true, packs24Bit: true)
            case (true, 32, false): common = .pcmFormatInt32
            case (true, 64, true): common = .pcmFormatFloat64
            default: common = .pcmFormatFloat32
            }
            return try target(common, rate, channels, interleaved: true, packs24Bit: false)
        }
        let formatID = settingsNumber(settings[AVFormatIDKey]).map { AudioFormatID(truncatingIfNeeded: Int64($0)) }
            ?? kAudioFormatLinearPCM
        guard formatID == kAudioFormatLinearPCM else {
            throw settingsError("AVFormatIDKey '\(fourCharacterCode(formatID))' is not linear PCM; "
                                + "set it to kAudioFormatLinearPCM (or pass nil outputSettings)")
        }
        guard settingsBool(settings[AVLinearPCMIsBigEndianKey]) != true else {
            throw settingsError("big-endian samples are not produced; set AVLinearPCMIsBigEndianKey to false")
        }
        let isFloat = settingsBool(settings[AVLinearPCMIsFloatKey]) ?? false
        let depth = settingsNumber(settings[AVLinearPCMBitDepthKey]).map { Int($0) } ?? (isFloat ? 32 : 16)
        let interleaved = !(settingsBool(settings[AVLinearPCMIsNonInterleaved]) ?? false)
        let outputRate = settingsNumber(settings[AVSampleRateKey]) ?? rate
        let outputChannels = settingsNumber(settings[AVNumberOfChannelsKey]) ?? Double(channels)
        guard outputRate > 0, outputRate.isFinite, outputRate <= 768_000 else {
            throw settingsError("AVSampleRateKey \(outputRate) is not a usable sample rate")
        }
        guard outputChannels >= 1, outputChannels <= 64 else {
            throw settingsError("AVNumberOfChannelsKey \(outputChannels) is not a usable channel count")
        }
        let common: AVAudioCommonFormat
        switch (isFloat, depth) {
        case (true, 32): common = .pcmFormatFloat32
        case (true, 64): common = .pcmFormatFloat64
        case (false, 16): common = .pcmFormatInt16
        case (false, 24):
            return try target(.pcmFormatInt32, outputRate, AVAudioChannelCount(outputChannels), interleaved: interleaved,
                              packs24Bit: true)
        case (false, 32): common = .pcmFormatInt32
        default:
            throw settingsError("AVLinearPCMBitDepthKey \(depth) is not produced "
                                + (isFloat ? "for float samples; use 32 or 64" : "for integer samples; use 16, 24 or 32"))
        }
        return try target(common, outputRate, AVAudioChannelCount(outputChannels), interleaved: interleaved,
                          packs24Bit: false)
    }

    private static func target(_ common: AVAudioCommonFormat, _ rate: Double, _ channels: AVAudioChannelCount,
                               interleaved: Bool, packs24Bit: Bool) throws -> Target {
        guard let format = AVAudioFormat(commonFormat: common, sampleRate: rate, channels: channels,
                                         interleaved: interleaved) else {
            throw settingsError("\(channels) channel(s) at \(rate) Hz is not a PCM format")
        }
        return Target(format: format, packs24Bit: packs24Bit)
    }

    /// The error for output settings the reader cannot honour.
    static func settingsError(_ problem: String) -> NSError {
        NSError(domain: AVFoundationErrorDomain, code: AVErrorUnknown, userInfo: [
            NSLocalizedDescriptionKey: "AVAssetReaderTrackOutput cannot deliver its output settings: \(problem)."])
    }

    /// Int32 samples (full scale 2^31) as packed little-endian 24-bit samples,
    /// keeping the buffer's layout.
    static func packed24BitSampleBuffer(_ buffer: AVAudioPCMBuffer, start: CMTime) -> CMSampleBuffer {
        let frames = Int(buffer.frameLength)
        let channels = Int(buffer.format.channelCount)
        var bytes = [UInt8](repeating: 0, count: frames * channels * 3)
        let planes = UnsafeMutableAudioBufferListPointer(buffer.mutableAudioBufferList)
        var index = 0
        for plane in planes {
            guard let samples = plane.mData?.assumingMemoryBound(to: Int32.self) else { continue }
            for sample in 0..<(Int(plane.mDataByteSize) / 4) {
                let value = UInt32(bitPattern: samples[sample] >> 8)
                bytes[index] = UInt8(value & 0xFF)
                bytes[index + 1] = UInt8((value >> 8) & 0xFF)
                bytes[index + 2] = UInt8((value >> 16) & 0xFF)
                index += 3
            }
        }
        var description = buffer.format.streamDescription.pointee
        description.mBitsPerChannel = 24
        description.mBytesPerFrame = UInt32(3 * (buffer.format.isInterleaved ? channels : 1))
        description.mBytesPerPacket = description.mBytesPerFrame
        return CMSampleBuffer(audioData: Data(bytes), streamDescription: description, sampleCount: frames,
                              presentationTimeStamp: start)
    }
}
