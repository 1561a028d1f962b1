// AVAudioFormat and Core Audio / CoreMedia format records:
// AudioStreamBasicDescription and CMAudioFormatDescription.

extension AVAudioFormat {
    /// Creates a format from a Core Audio stream description; `nil` for
    /// big-endian or malformed linear PCM, or a zero rate or channel count.
    public convenience init?(streamDescription asbd: UnsafePointer<AudioStreamBasicDescription>) {
        let description = asbd.pointee
        guard description.mSampleRate > 0, description.mChannelsPerFrame > 0 else { return nil }
        if description.mFormatID == kAudioFormatLinearPCM {
            let flags = description.mFormatFlags
            let isFloat = flags & kAudioFormatFlagIsFloat != 0
            let bits = Int(description.mBitsPerChannel)
            guard flags & kAudioFormatFlagIsBigEndian == 0,
                  (isFloat ? [32, 64] : [8, 16, 24, 32]).contains(bits) else { return nil }
            self.init(formatID: kAudioFormatLinearPCM, sampleRate: description.mSampleRate,
                      channelCount: description.mChannelsPerFrame, bitDepth: bits, isFloat: isFloat,
                      interleaved: flags & kAudioFormatFlagIsNonInterleaved == 0)
        } else {
            self.init(formatID: description.mFormatID, sampleRate: description.mSampleRate,
                      channelCount: description.mChannelsPerFrame, bitDepth: 0, isFloat: false, interleaved: true)
        }
    }

    /// Creates a format from a CoreMedia audio format description.
    /// - Note: On Linux an unusable description gives 48 kHz mono Float32.
    public convenience init(cmAudioFormatDescription formatDescription: CMAudioFormatDescription) {
        var description = formatDescription.audioStreamBasicDescription ?? AudioStreamBasicDescription()
        if AVAudioFormat(streamDescription: &description) == nil {
            description = AVAudioFormat.streamDescription(formatID: kAudioFormatLinearPCM, sampleRate: 48_000,
                                                          channelCount: 1, bitDepth: 32, isFloat: true, interleaved: false)
        }
        self.init(streamDescription: &description)!
    }

    /// The format as a CoreMedia audio format description.
    public var formatDescription: CMAudioFormatDescription {
        CMAudioFormatDescription(audioStreamBasicDescription: streamDescription.pointee)
    }

    /// The Core Audio record for a format's fields.
    static func streamDescription(formatID: AudioFormatID, sampleRate: Double, channelCount: AVAudioChannelCount,
                                  bitDepth: Int, isFloat: Bool, interleaved: Bool) -> AudioStreamBasicDescription {
        var description = AudioStreamBasicDescription()
        description.mSampleRate = sampleRate
        description.mFormatID = formatID
        description.mChannelsPerFrame = channelCount
        guard formatID == kAudioFormatLinearPCM else { return description }
        var flags = (isFloat ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger) | kAudioFormatFlagIsPacked
        if !interleaved { flags |= kAudioFormatFlagIsNonInterleaved }
        let bytesPerSample = UInt32((bitDepth + 7) / 8)
        description.mFormatFlags = flags
        description.mBitsPerChannel = UInt32(bitDepth)
        description.mFramesPerPacket = 1
        description.mBytesPerFrame = bytesPerSample * (interleaved ? channelCount : 1)
        description.mBytesPerPacket = description.mBytesPerFrame
        return description
    }
}
