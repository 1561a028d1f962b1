import Foundation

/// Reads a 16 kHz mono WAV file (16-bit PCM or 32-bit float) chunk by chunk,
/// so `speech bench --stream` can feed an hour of audio without holding it:
/// the decoded hour alone is 230 MB, more than the recognizer's own growth
/// the benchmark is there to show. Other files return nil from `init` and
/// are decoded whole (`AudioDecoder`).
///
/// `@unchecked Sendable`: the feeder's one task reads it, nothing else does.
final class StreamingWAVReader: @unchecked Sendable {
    private let handle: FileHandle
    private let bytesPerSample: Int
    private let isFloat: Bool
    /// Data bytes not read yet.
    private var remainingBytes: Int
    /// Samples in the file.
    let sampleCount: Int

    /// Opens `url` if it is a WAV file of 16 kHz mono 16-bit or float samples; nil otherwise.
    init?(url: URL) {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        guard let riff = try? handle.read(upToCount: 12), riff.count == 12,
              riff.prefix(4) == Data("RIFF".utf8), riff.suffix(4) == Data("WAVE".utf8) else {
            try? handle.close()
            return nil
        }
        var format: (tag: Int, channels: Int, rate: Int, bits: Int)?
        while true {
            guard let header = try? handle.read(upToCount: 8), header.count == 8 else { try? handle.close(); return nil }
            let id = String(decoding: header.prefix(4), as: UTF8.self)
            let size = Self.integer(header, at: 4, bytes: 4)
            if id == "fmt " {
                guard size >= 16, let body = try? handle.read(upToCount: size + size % 2), body.count >= 16 else {
                    try? handle.close()
                    return nil
                }
                var tag = Self.integer(body, at: 0, bytes: 2)
                // WAVE_FORMAT_EXTENSIBLE names the real format in its sub-format GUID's first two bytes.
                if tag == 0xFFFE, body.count >= 26 { tag = Self.integer(body, at: 24, bytes: 2) }
                format = (tag, Self.integer(body, at: 2, bytes: 2), Self.integer(body, at: 4, bytes: 4),
                          Self.integer(body, at: 14, bytes: 2))
            } else if id == "data" {
                guard let format, format.channels == 1, format.rate == 16_000,
                      (format.tag == 1 && format.bits == 16) || (format.tag == 3 && format.bits == 32) else {
                    try? handle.close()
                    return nil
                }
                self.handle = handle
                bytesPerSample = format.bits / 8
                isFloat = format.tag == 3
                remainingBytes = size
                sampleCount = size / bytesPerSample
                return
            } else {
                guard (try? handle.seek(toOffset: handle.offsetInFile + UInt64(size + size % 2))) != nil else {
                    try? handle.close()
                    return nil
                }
            }
        }
    }

    deinit { try? handle.close() }

    /// The next `count` samples (fewer at the end), in [-1, 1]; empty at the end of the data.
    func read(_ count: Int) -> [Float] {
        let bytes = min(remainingBytes, count * bytesPerSample)
        guard bytes > 0, let data = try? handle.read(upToCount: bytes), !data.isEmpty else { return [] }
        remainingBytes -= data.count
        let samples = data.count / bytesPerSample
        return data.withUnsafeBytes { raw in
            (0..<samples).map { index in
                if isFloat {
                    return max(-1, min(1, Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))))
                }
                return Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))) / 32_768
            }
        }
    }

    private static func integer(_ data: Data, at offset: Int, bytes: Int) -> Int {
        let start = data.startIndex + offset
        return (0..<bytes).reduce(0) { $0 | Int(data[start + $1]) << (8 * $1) }
    }
}
