// AVAudioFile reading: `read(into:)` and `read(into:frameCount:)`.

import CSndFile

extension AVAudioFile {
    /// Reads up to `buffer.frameCapacity` frames from `framePosition`, sets
    /// `buffer.frameLength` and advances `framePosition`.
    ///
    /// At the end of the file the buffer comes back with `frameLength == 0`.
    /// - Throws: `kAudio_ParamError` if the buffer's format is not
    ///   `processingFormat` or the file was opened for writing;
    ///   `kAudioFileNotOpenError` after `close()`.
    public func read(into buffer: AVAudioPCMBuffer) throws {
        try read(into: buffer, frameCount: buffer.frameCapacity)
    }

    /// Reads up to `frames` frames (at most the buffer's capacity), as `read(into:)`.
    public func read(into buffer: AVAudioPCMBuffer, frameCount frames: AVAudioFrameCount) throws {
        lock.lock()
        defer { lock.unlock() }
        let handle = try openHandle()
        guard !isWriting else {
            throw AudioError.make(kAudio_ParamError, "\(url.path) was opened for writing, not reading.", url: url)
        }
        guard buffer.format == processingFormat else {
            throw AudioError.make(kAudio_ParamError,
                                  "The buffer's format \(buffer.format) is not the file's processing format "
                                  + "\(processingFormat). Create the buffer with file.processingFormat.", url: url)
        }
        let wanted = Int(min(frames, buffer.frameCapacity))
        let channels = Int(processingFormat.channelCount)
        var done = 0
        func readAll<Sample>(_ zero: Sample, _ readFrames: (OpaquePointer, UnsafeMutablePointer<Sample>, sf_count_t) -> sf_count_t,
                             _ store: (UnsafePointer<Sample>, Int, Int) -> Void) {
            let scratchFrames = min(wanted, 16_384)
            guard scratchFrames > 0 else { return }
            let scratch = UnsafeMutablePointer<Sample>.allocate(capacity: scratchFrames * channels)
            defer { scratch.deallocate() }
            while done < wanted {
                let chunk = min(scratchFrames, wanted - done)
                let got = Int(readFrames(handle, scratch, sf_count_t(chunk)))
                if got <= 0 { break }
                store(UnsafePointer(scratch), done, got)
                done += got
            }
        }
        switch processingFormat.commonFormat {
        case .pcmFormatFloat32:
            readAll(Float(0), { sf_readf_float($0, $1, $2) }) { interleave(into: buffer, buffer.floatChannelData, $0, $1, $2) }
        case .pcmFormatFloat64:
            readAll(Double(0), { sf_readf_double($0, $1, $2) }) { interleave(into: buffer, buffer.float64ChannelData, $0, $1, $2) }
        case .pcmFormatInt16:
            readAll(Int16(0), { sf_readf_short($0, $1, $2) }) { interleave(into: buffer, buffer.int16ChannelData, $0, $1, $2) }
        case .pcmFormatInt32:
            readAll(Int32(0), { sf_readf_int($0, $1, $2) }) { interleave(into: buffer, buffer.int32ChannelData, $0, $1, $2) }
        case .otherFormat:
            break
        }
        buffer.frameLength = AVAudioFrameCount(done)
        position += AVAudioFramePosition(done)
        // Compressed streams may hold more or fewer frames than their header
        // estimated: a short read means the end, so `length` becomes exact and
        // `while file.framePosition < file.length` loops terminate.
        if position > frameCount || done < wanted { frameCount = position }
    }
}

/// Copies `count` interleaved frames from `source` into `buffer` at `startFrame`,
/// in the buffer's own layout.
private func interleave<Sample>(into buffer: AVAudioPCMBuffer, _ channelData: UnsafePointer<UnsafeMutablePointer<Sample>>?,
                                _ source: UnsafePointer<Sample>, _ startFrame: Int, _ count: Int) {
    guard let channelData else { return }
    let channels = Int(buffer.format.channelCount)
    if buffer.format.isInterleaved || channels == 1 {
        (channelData[0] + startFrame * channels).update(from: source, count: count * channels)
        return
    }
    for channel in 0..<channels {
        let destination = channelData[channel] + startFrame
        for frame in 0..<count { destination[frame] = source[frame * channels + channel] }
    }
}
