import Foundation

/// The start of a WAV stream sent live (`encoding=wav`): the `fmt ` chunk's
/// sample format and where the `data` chunk's samples begin.
///
/// libsndfile reads whole files; a stream still arriving has no length yet
/// (writers that stream put 0 or 0xFFFFFFFF in the RIFF and data sizes), so
/// only the chunk walk up to `data` is done here, and the sizes are ignored.
struct WAVStreamHeader {
    /// The sample layout the `fmt ` chunk declares.
    struct Format: Equatable {
        var sampleRate: Int
        var channelCount: Int
        /// IEEE float samples (32-bit) rather than integer PCM (16-bit).
        var isFloat: Bool
    }

    var format: Format
    /// Offset of the first sample byte.
    var offset: Int

    /// Parses `bytes` (the stream's first bytes); nil when the `data` chunk
    /// has not arrived yet.
    /// - Throws: `ServiceError(.invalidRequest, code: "invalid_audio")` when the
    ///   bytes are not RIFF/WAVE or the format is not 16-bit PCM or 32-bit float.
    static func parse(_ bytes: [UInt8]) throws(ServiceError) -> WAVStreamHeader? {
        guard bytes.count >= 12 else { return nil }
        guard ascii(bytes, 0) == "RIFF", ascii(bytes, 8) == "WAVE" else {
            throw invalid("The stream does not start with a RIFF/WAVE header; send a WAV stream, "
                          + "or raw PCM with encoding=s16le or f32le.")
        }
        var position = 12
        var format: Format?
        while position + 8 <= bytes.count {
            let name = ascii(bytes, position)
            let size = Int(uint32(bytes, position + 4))
            let body = position + 8
            if name == "data" {
                guard let format else { throw invalid("The WAV stream's 'data' chunk comes before its 'fmt ' chunk.") }
                return WAVStreamHeader(format: format, offset: body)
            }
            guard body + size <= bytes.count else { return nil }  // the chunk is still arriving
            if name == "fmt " {
                format = try parseFormat(bytes, at: body, size: size)
            }
            position = body + size + (size & 1)  // chunks are padded to even sizes
        }
        return nil
    }

    private static func parseFormat(_ bytes: [UInt8], at start: Int, size: Int) throws(ServiceError) -> Format {
        guard size >= 16 else { throw invalid("The WAV 'fmt ' chunk is \(size) bytes; it needs at least 16.") }
        var tag = uint16(bytes, start)
        let channels = Int(uint16(bytes, start + 2))
        let rate = Int(uint32(bytes, start + 4))
        let bits = Int(uint16(bytes, start + 14))
        if tag == 0xFFFE, size >= 26 {
            tag = uint16(bytes, start + 24)  // WAVE_FORMAT_EXTENSIBLE: the sub-format GUID starts with the tag
        }
        switch (tag, bits) {
        case (1, 16): return Format(sampleRate: rate, channelCount: channels, isFloat: false)
        case (3, 32): return Format(sampleRate: rate, channelCount: channels, isFloat: true)
        default:
            throw invalid("The WAV stream holds \(bits)-bit samples of format \(tag); send 16-bit PCM or 32-bit float "
                          + "(e.g. sox … -b 16 -e signed-integer).")
        }
    }

    private static func invalid(_ message: String) -> ServiceError {
        ServiceError(.invalidRequest, code: "invalid_audio", message)
    }

    private static func ascii(_ bytes: [UInt8], _ at: Int) -> String {
        String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
    }

    private static func uint16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
    }
}
