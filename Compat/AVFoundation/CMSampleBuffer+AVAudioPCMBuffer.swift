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
              let format = AVAudioFormat(streamDescription: &description), format.commonFormat != .otherFormat,
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
}
