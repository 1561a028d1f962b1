import CSndFile
import Foundation

/// Reads audio files into the engine's input format: 16 kHz mono Float in [-1, 1].
///
/// Decoding is libsndfile's (WAV, FLAC, OGG/Vorbis, OGG/Opus, MP3, AIFF, …; no AAC/M4A),
/// channels are averaged (`Downmix`), and the rate is converted with libsoxr
/// (`Resampler`), all streamed in blocks (`AudioFileReader`) so long files never sit in
/// memory twice; a caller that wants the blocks themselves (a long file fed to live
/// recognition) reads them from `AudioFileReader` and never holds the whole file.
///
/// Errors name the file and say what to do. MP3s with a LAME/Xing tag come back
/// gapless (libsndfile's mpg123 trims the encoder delay); untagged MP3s may keep
/// ~1,600 samples of leading encoder padding.
public enum AudioDecoder {
    /// The engine's sample rate in Hz.
    public static let sampleRate = 16_000.0
    /// Decodes any file libsndfile reads, at any rate and channel count, to 16 kHz mono
    /// Float samples in [-1, 1]. NaN and Inf samples (float files) are repaired by
    /// `SampleSanitizer` before resampling.
    ///
    /// Only regular files are read: a device (`/dev/null`, `/dev/zero`), a pipe, a socket
    /// or a directory is refused by `checkAudioFile(at:)` before libsndfile opens it, so a
    /// mistaken path never reads forever or passes as silence. A file that holds no
    /// audio (zero bytes, or a header with no frames) is an error, not an empty result.
    ///
    /// - Throws: `EngineError(.unreadableAudio)` for a missing, unreadable, empty, malformed
    ///   or truncated file or one that is not a regular file; `EngineError(.unsupportedAudioFormat)`
    ///   for a file libsndfile does not recognise or an encoding it cannot decode. The message
    ///   names the file.
    public static func decode(contentsOf url: URL) throws -> [Float] {
        let reader = try AudioFileReader(contentsOf: url)
        var output: [Float] = []
        if let expected = reader.expectedSampleCount { output.reserveCapacity(expected + 1_024) }
        while let block = try reader.nextBlock() {
            output.append(contentsOf: block)
        }
        return output
    }

    /// Checks that `path` names an existing, readable, non-empty regular file
    /// (symbolic links followed), and says what it is otherwise.
    ///
    /// Called by `decode(contentsOf:)`; callers that load a model first (the
    /// `speech` tool) call it up front to fail before the load.
    /// - Throws: `EngineError(.unreadableAudio)` naming the path and what is
    ///   wrong: missing, a symbolic-link loop, a directory, a device, a pipe,
    ///   a socket, unreadable, or empty.
    public static func checkAudioFile(at path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            switch code {
            case ELOOP:
                throw EngineError(.unreadableAudio,
                                  "'\(path)' is a symbolic link that loops (it points back to itself); fix the link or give the audio file's real path.")
            case EACCES:
                throw EngineError(.unreadableAudio, "'\(path)' cannot be reached: permission denied on a folder in its path.")
            case ENOTDIR:
                throw EngineError(.unreadableAudio, "'\(path)' is not a valid path: one of its folders is a file.")
            case ENAMETOOLONG:
                throw EngineError(.unreadableAudio, "'\(path)' is too long a path for this system.")
            default:
                var linkInfo = stat()
                if lstat(path, &linkInfo) == 0 {
                    throw EngineError(.unreadableAudio,
                                      "'\(path)' is a symbolic link to a file that does not exist; fix the link or give the audio file's real path.")
                }
                throw EngineError(.unreadableAudio, "No audio file at '\(path)'. Check the path.")
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFDIR:
            throw EngineError(.unreadableAudio, "'\(path)' is a directory, not an audio file.")
        case S_IFCHR, S_IFBLK:
            throw EngineError(.unreadableAudio,
                              "'\(path)' is a device, not an audio file; only regular files are read. Record the audio to a file first.")
        case S_IFIFO:
            throw EngineError(.unreadableAudio,
                              "'\(path)' is a pipe (FIFO), not an audio file; only regular files are read. Save the stream to a file first.")
        case S_IFSOCK:
            throw EngineError(.unreadableAudio, "'\(path)' is a socket, not an audio file.")
        default:
            throw EngineError(.unreadableAudio, "'\(path)' is not a regular file, so it is not read as audio.")
        }
        guard access(path, R_OK) == 0 else {
            throw EngineError(.unreadableAudio, "'\(path)' is not readable; check its permissions.")
        }
        guard info.st_size > 0 else {
            throw EngineError(.unreadableAudio,
                              "'\(path)' is empty (0 bytes): it holds no audio. Re-export or re-record it.")
        }
    }

    /// Maps a failed `sf_open` to the engine's error codes.
    static func openError(path: String, code: Int32, reason: String) -> EngineError {
        switch code {
        case Int32(SF_ERR_UNRECOGNISED_FORMAT), Int32(SF_ERR_UNSUPPORTED_ENCODING):
            return EngineError(.unsupportedAudioFormat,
                               "'\(path)' is not audio in a format libsndfile decodes (\(reason)). Use WAV, FLAC, OGG/Vorbis, OGG/Opus or MP3.")
        default:
            return EngineError(.unreadableAudio,
                               "'\(path)' could not be read as audio (\(reason)); it may be truncated or corrupted.")
        }
    }

    static func truncated(_ path: String) -> EngineError {
        EngineError(.unreadableAudio,
                    "'\(path)' is truncated: its header promises more audio than the file holds. Re-export or re-download it.")
    }

    /// Whether the stream stopped short of the length its container declares.
    ///
    /// FLAC (STREAMINFO) and LAME MP3 (Xing header) know their length; MP3 gets two
    /// frames (2 × 1152 samples) of slack for length estimates. A finished Ogg stream
    /// ends with a page carrying its final position, so an Ogg file whose length
    /// libsndfile cannot find (`SF_COUNT_MAX`) was cut off.
    static func endsEarly(info: SF_INFO, framesRead: Int64) -> Bool {
        let container = info.format & Int32(SF_FORMAT_TYPEMASK)
        if info.frames == Int64.max { return container == Int32(SF_FORMAT_OGG) }
        let slack: Int64 = container == Int32(SF_FORMAT_MPEG) ? 2 * 1_152 : 0
        return framesRead + slack < info.frames
    }

    /// libsndfile opens a WAV/AIFF whose data chunk runs past the end of the file and
    /// quietly shortens it; its log records that (`data : 352044 (should be 100000)`).
    /// Streaming writers that leave the size as 0 or 0xFFFFFFFF are not truncation.
    static func dataChunkOverrunsFile(_ file: OpaquePointer) -> Bool {
        var log = [CChar](repeating: 0, count: 8_192)
        let length = log.withUnsafeMutableBufferPointer { buffer in
            sf_command(file, Int32(SFC_GET_LOG_INFO), buffer.baseAddress, Int32(buffer.count))
        }
        guard length > 0 else { return false }
        let text = String(decoding: log.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let placeholders: Set<Int64> = [0, 0xFFFF_FFFF, 0x7FFF_FFFF]
        for line in text.split(separator: "\n") {
            // "data : 1940400 (should be 99956)": declared size, then what the file holds.
            let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int64($0) }
            guard line.contains("should be"), numbers.count >= 2 else { continue }
            let declared = numbers[numbers.count - 2], available = numbers[numbers.count - 1]
            if declared > available && !placeholders.contains(declared) { return true }
        }
        return false
    }
}
