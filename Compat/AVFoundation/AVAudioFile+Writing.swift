// AVAudioFile writing: `write(from:)`, converting the processing format to the
// file's encoding.

import CSndFile

extension AVAudioFile {
    /// Appends the buffer's valid frames to the file.
    ///
    /// Float samples bound for integer files are scaled by 2^(bits-1), rounded
    /// and clipped, so a read–write round trip keeps integer samples exactly.
    /// - Throws: `kAudio_ParamError` if the buffer's format is not
    ///   `processingFormat` or the file was opened for reading;
    ///   `kAudioFileUnspecifiedError` if the encoder fails (e.g. disk full).
    public func write(from buffer: AVAudioPCMBuffer) throws {
        lock.lock()
        defer { lock.unlock() }
        let handle = try openHandle()
        guard isWriting else {
            throw AudioError.make(kAudio_ParamError, "\(url.path) was opened for reading, not writing.", url: url)
        }
        guard buffer.format == processingFormat else {
            throw AudioError.make(kAudio_ParamError,
                                  "The buffer's format \(buffer.format) is not the file's processing format "
                                  + "\(processingFormat). Convert it with AVAudioConverter first.", url: url)
        }
        let frames = Int(buffer.frameLength)
        guard frames > 0 else { return }
        let channels = Int(processingFormat.channelCount)
        let planar = buffer.planarFloats()
        let written: Int
        let fileIsInteger = fileFormat.formatID == kAudioFormatLinearPCM && !fileFormat.isFloat
            || fileFormat.formatID == kAudioFormatFLAC
        if processingFormat.commonFormat == .pcmFormatInt16 || processingFormat.commonFormat == .pcmFormatInt32
            || fileIsInteger && fileFormat.bitDepth != 8 {
            // Integer path: exact for integer buffers, symmetric scaling for floats.
            var samples = [Int32](repeating: 0, count: frames * channels)
            fillInterleavedIntegers(&samples, from: buffer, planar: planar)
            written = Int(sf_writef_int(handle, &samples, sf_count_t(frames)))
        } else {
            var samples = [Float](repeating: 0, count: frames * channels)
            for channel in 0..<channels {
                for frame in 0..<frames { samples[frame * channels + channel] = planar[channel][frame] }
            }
            written = Int(sf_writef_float(handle, &samples, sf_count_t(frames)))
        }
        guard written == frames else {
            throw AudioError.make(kAudioFileUnspecifiedError,
                                  "Writing to \(url.path) failed after \(written) of \(frames) frames.",
                                  url: url, underlying: String(cString: sf_strerror(handle)))
        }
        position += AVAudioFramePosition(frames)
        frameCount = position
    }

    /// Interleaved 32-bit integer samples (full scale 2^31) for libsndfile's
    /// `sf_writef_int`, taken exactly from integer buffers.
    private func fillInterleavedIntegers(_ samples: inout [Int32], from buffer: AVAudioPCMBuffer, planar: [[Float]]) {
        let channels = Int(processingFormat.channelCount)
        let frames = Int(buffer.frameLength)
        let step = buffer.stride
        // Quantise floats at the file's depth, rounding to nearest; libsndfile
        // would otherwise truncate when it narrows the 32-bit values.
        let fileBits = fileFormat.bitDepth == 24 || fileFormat.bitDepth == 32 ? fileFormat.bitDepth : 16
        let shift = Int32(32 - fileBits)
        let scale = Double(1 << (fileBits - 1))
        for channel in 0..<channels {
            for frame in 0..<frames {
                let sample: Int32
                if let data = buffer.int16ChannelData {
                    sample = Int32(data[channel][frame * step]) << 16
                } else if let data = buffer.int32ChannelData {
                    sample = data[channel][frame * step]
                } else {
                    let quantised: Int32 = pcmInteger(Double(planar[channel][frame]), scale: scale)
                    sample = quantised << shift
                }
                samples[frame * channels + channel] = sample
            }
        }
    }
}
