import CSndFile
import Foundation

/// Reads an audio file block by block in the engine's input format (16 kHz mono
/// Float in [-1, 1]), so a long file can be fed to live recognition, or decoded,
/// without more than one block of it in memory.
///
/// `AudioDecoder.decode(contentsOf:)` is this reader run to the end; the checks and
/// errors are the same: the file is checked before libsndfile opens it, NaN/Inf
/// samples are repaired before the resampler, and a file that stops short of what
/// its header declares, or holds no audio at all, throws when the reader reaches
/// its end (the blocks before it were real audio).
///
/// Not thread-safe: use one reader from one task at a time.
public final class AudioFileReader {
    /// Frames read from libsndfile per block (about 1.4 s at 48 kHz).
    private static let blockFrameCount = 65_536

    /// The file's path, as errors name it.
    public let path: String
    /// 16 kHz samples the file's header promises, when it knows its length.
    public let expectedSampleCount: Int?
    private let file: OpaquePointer
    private let channelCount: Int
    private let info: SF_INFO
    private let resampler: Resampler
    private var block: [Float]
    private var framesRead: Int64 = 0
    private var samplesDelivered = 0
    private var finished = false

    /// Opens `url` for reading.
    /// - Throws: as `AudioDecoder.decode(contentsOf:)` for a file that cannot be opened.
    public init(contentsOf url: URL) throws {
        let path = url.path
        try AudioDecoder.checkAudioFile(at: path)
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            throw AudioDecoder.openError(path: path, code: sf_error(nil), reason: String(cString: sf_strerror(nil)))
        }
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(file)
            throw EngineError(.unsupportedAudioFormat,
                              "'\(path)' declares \(info.channels) channels at \(info.samplerate) Hz; convert it to a standard WAV or FLAC file.")
        }
        let resampler: Resampler
        do {
            resampler = try Resampler(inputRate: Double(info.samplerate), outputRate: AudioDecoder.sampleRate)
        } catch {
            sf_close(file)
            throw error
        }
        self.path = path
        self.file = file
        self.info = info
        self.resampler = resampler
        channelCount = Int(info.channels)
        block = [Float](repeating: 0, count: Self.blockFrameCount * Int(info.channels))
        // Ogg files whose length libsndfile cannot find report SF_COUNT_MAX.
        expectedSampleCount = info.frames > 0 && info.frames < Int64(Int32.max)
            ? Int(Double(info.frames) * AudioDecoder.sampleRate / Double(info.samplerate)) : nil
    }

    deinit { sf_close(file) }

    /// The next block of 16 kHz mono samples (it may be empty while the resampler
    /// fills its filter), or nil once the whole file has been delivered.
    ///
    /// Integer formats are scaled to [-1, 1) by libsndfile (`SFC_SET_NORM_FLOAT` is on by default).
    /// - Throws: `EngineError(.unreadableAudio)` when decoding fails part-way, when the file
    ///   turns out truncated, or when it held no audio; the reader is finished after a throw.
    public func nextBlock() throws -> [Float]? {
        guard !finished else { return nil }
        let count = block.withUnsafeMutableBufferPointer { buffer in
            sf_readf_float(file, buffer.baseAddress, sf_count_t(Self.blockFrameCount))
        }
        var output: [Float]
        if count > 0 {
            framesRead += count
            var interleaved = count == Self.blockFrameCount ? block : Array(block[0..<(Int(count) * channelCount)])
            // Before the resampler, whose filter would smear a NaN over its neighbours.
            SampleSanitizer.sanitize(&interleaved)
            output = resampler.process(Downmix.mono(interleaved: interleaved, channelCount: channelCount))
        } else {
            finished = true
            try checkEnd()
            output = resampler.finish()
            if samplesDelivered + output.count == 0 {
                throw EngineError(.unreadableAudio,
                                  "'\(path)' holds no audio: its header declares 0 frames. Re-export or re-record it.")
            }
            if output.isEmpty { return nil }
        }
        // The resampler's filter may overshoot [-1, 1] slightly.
        SampleSanitizer.sanitize(&output)
        samplesDelivered += output.count
        return output
    }

    /// At the end of the frames: a read error, or a file shorter than its header.
    private func checkEnd() throws {
        let status = sf_error(file)
        if status != Int32(SF_ERR_NO_ERROR) {
            throw EngineError(.unreadableAudio,
                              "'\(path)' could not be decoded after \(framesRead) frames (\(String(cString: sf_strerror(file)))); the file is corrupted or truncated.")
        }
        if AudioDecoder.endsEarly(info: info, framesRead: framesRead) || AudioDecoder.dataChunkOverrunsFile(file) {
            throw AudioDecoder.truncated(path)
        }
    }
}
