import CZlib

/// Whisper's repetition check: UTF-8 length over zlib-compressed length.
/// ref: whisper/utils.py `compression_ratio`
enum CompressionRatio {
    static func of(_ text: String) -> Double {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return 0 }
        var compressedLength = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(compressedLength))
        let status = compress2(&output, &compressedLength, bytes, uLong(bytes.count), Z_DEFAULT_COMPRESSION)
        guard status == Z_OK, compressedLength > 0 else { return 0 }
        return Double(bytes.count) / Double(compressedLength)
    }
}
