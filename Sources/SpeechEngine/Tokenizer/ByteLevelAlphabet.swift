/// GPT-2's byte-level alphabet: a one-to-one map between the 256 byte values
/// and 256 printable Unicode scalars.
///
/// Byte-level BPE vocabularies (GPT-2, Whisper) spell every token as a string
/// over this alphabet, so that a token made of raw bytes (a space, a newline,
/// half of a multi-byte UTF-8 character) still reads as printable text in
/// `tokenizer.json`. Printable Latin-1 bytes (`!`…`~`, `¡`…`¬`, `®`…`ÿ`) map
/// to themselves; the other 68 bytes map, in byte order, to U+0100, U+0101, …
/// — so a space (0x20) is `Ġ` (U+0120) and a newline (0x0A) is `Ċ` (U+010A).
///
/// ref: openai/whisper (via GPT-2) `bytes_to_unicode`, encoder.py.
enum ByteLevelAlphabet {
    /// The scalar that stands for each byte value.
    /// - Shape: 256 entries, indexed by byte value.
    static let scalarForByte: [Unicode.Scalar] = {
        var table = [Unicode.Scalar](repeating: " ", count: 256)
        var nextUnprintable: UInt32 = 256
        for byte in 0..<256 {
            if isPrintable(UInt8(byte)) {
                table[byte] = Unicode.Scalar(UInt32(byte))!
            } else {
                table[byte] = Unicode.Scalar(nextUnprintable)!
                nextUnprintable += 1
            }
        }
        return table
    }()

    /// The byte value each alphabet scalar stands for, keyed by scalar value.
    static let byteForScalar: [UInt32: UInt8] = {
        var table: [UInt32: UInt8] = [:]
        for (byte, scalar) in scalarForByte.enumerated() {
            table[scalar.value] = UInt8(byte)
        }
        return table
    }()

    /// Whether a byte is one of the 188 that GPT-2 keeps as its own scalar.
    private static func isPrintable(_ byte: UInt8) -> Bool {
        (0x21...0x7E).contains(byte) || (0xA1...0xAC).contains(byte) || (0xAE...0xFF).contains(byte)
    }

    /// The alphabet spelling of raw bytes, e.g. `[0x20, 0x48]` → `"ĠH"`.
    static func spelling(of bytes: some Sequence<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            scalars.append(scalarForByte[Int(byte)])
        }
        return String(scalars)
    }

    /// The raw bytes an alphabet spelling stands for, or `nil` when the
    /// string holds a scalar outside the alphabet (such as a special token's
    /// `<|…|>` text, which is not byte-level).
    static func bytes(ofSpelling spelling: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(spelling.unicodeScalars.count)
        for scalar in spelling.unicodeScalars {
            guard let byte = byteForScalar[scalar.value] else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
