// Moving PCM between AVAudioPCMBuffer and CMSampleBuffer: what
// `SFSpeechAudioBufferRecognitionRequest.appendAudioSampleBuffer(_:)` needs.
// Both calls are SpeechCompat conveniences, not Apple API.

extension CMSampleBuffer {
    /// Creates a sample buffer holding a copy of a PCM buffer's valid frames.
    ///
    /// Apple code builds sample buffers with `CMSampleBufferCreate`; on Linux
    /// use this instead. Deinterleaved buffers are stored one channel after
    /// another, with `kAudioFormatFlagIsNonInterleaved` set.
    public convenience init(pcmBuffer: AVAudioPCMBuffer, presentationTimeStamp: CMTime) {
        let format = pcmBuffer.format
        let frames = Int(pcmBuffer.frameLength)
        let bytesPerSample = format.commonFormat.bytesPerSample
        let channels = Int(format.channelCount)
        var data = Data(capacity: frames * channels * bytesPerSample)
        if format.isInterleaved || channels == 1 {
            data.append(contentsOf: UnsafeRawBufferPointer(start: pcmBuffer.sampleMemory, count: frames * channels * bytesPerSample))
        } else {
            let planeBytes = Int(pcmBuffer.frameCapacity) * bytesPerSample
            for channel in 0..<channels {
                data.append(contentsOf: UnsafeRawBufferPointer(start: pcmBuffer.sampleMemory + channel * planeBytes,
                                                   count: frames * bytesPerSample))
            }
        }
        self.init(audioData: data, streamDescription: format.streamDescription.pointee, sampleCount: frames,
                  presentationTimeStamp: presentationTimeStamp)
    }

    /// The samples as an `AVAudioPCMBuffer` in the buffer's own format, or
    /// `nil` when the sample buffer is not linear PCM in a common format.
    ///
    /// Copies through `CMSampleBufferCopyPCMDataIntoAudioBufferList`, the
    /// call Apple code uses for the same job.
    public func makeAudioPCMBuffer() -> AVAudioPCMBuffer? {
        guard var description = formatDescription?.audioStreamBasicDescription,
              let format = AVAudioFormat(streamDescription: &description) else { return nil }
        if format.commonFormat == .otherFormat && description.mFormatID == kAudioFormatLinearPCM
            && description.mBitsPerChannel == 24 && description.mFormatFlags & kAudioFormatFlagIsFloat == 0 {
            return unpacked24BitBuffer(description)
        }
        guard format.commonFormat != .otherFormat,
              let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(numSamples)) else {
            return nil
        }
        buffer.frameLength = buffer.frameCapacity
        guard CMSampleBufferCopyPCMDataIntoAudioBufferList(self, at: 0, frameCount: Int32(numSamples),
                                                           into: buffer.mutableAudioBufferList) == noErr else {
            return nil
        }
        return buffer
    }

    /// Packed 24-bit integer samples (what a 24-bit `AVAssetReaderTrackOutput`
    /// gives) as an Int32 buffer in the same layout: no common format holds
    /// 24-bit samples.
    private func unpacked24BitBuffer(_ description: AudioStreamBasicDescription) -> AVAudioPCMBuffer? {
        let interleaved = description.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0
        guard let format = AVAudioFormat(commonFormat: .pcmFormatInt32, sampleRate: description.mSampleRate,
                                         channels: description.mChannelsPerFrame, interleaved: interleaved),
              let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(numSamples)) else {
            return nil
        }
        buffer.frameLength = buffer.frameCapacity
        let unpacked: Bool? = try? withAudioBufferList { source, _ in
            let destination = UnsafeMutableAudioBufferListPointer(buffer.mutableAudioBufferList)
            guard source.count == destination.count else { return false }
            for (from, to) in zip(source, destination) {
                guard let bytes = from.mData?.assumingMemoryBound(to: UInt8.self),
                      let samples = to.mData?.assumingMemoryBound(to: Int32.self),
                      Int(from.mDataByteSize) / 3 <= Int(to.mDataByteSize) / 4 else { return false }
                for index in 0..<(Int(from.mDataByteSize) / 3) {
                    let value = UInt32(bytes[index * 3]) << 8 | UInt32(bytes[index * 3 + 1]) << 16
                        | UInt32(bytes[index * 3 + 2]) << 24
                    samples[index] = Int32(bitPattern: value)
                }
            }
            return true
        }
        return unpacked == true ? buffer : nil
    }
}
