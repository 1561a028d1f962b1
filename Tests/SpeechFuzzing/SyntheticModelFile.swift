import Foundation

/// Writes small CTranslate2 `model.bin` files (binary version 6) with
/// Whisper's variable names and shapes, so that the loader can be tested and
/// fuzzed in milliseconds instead of on the 145 MB real model.
///
/// The default file is a structurally complete Whisper checkpoint of width
/// 4, one head, one encoder and one decoder layer, 80 mel bins, a 32-token
/// text context and the English-only vocabulary of 51,864 tokens (the loader
/// insists on a real Whisper vocabulary): about 220 KB, most of it the int8
/// embedding table. Tensors use every dtype the format has (f32, f16, bf16,
/// i8, i16, i32) so each conversion path is exercised.
public struct SyntheticModelFile {
    /// Model width.
    public var width = 4
    /// Vocabulary rows of the embedding table.
    public var vocabularySize = 51_864
    /// Decoder positions.
    public var textContext = 32
    /// Mel bins of conv1.
    public var melCount = 80
    /// Stored as the rank-0 variable `encoder/num_heads` (nil: left out).
    public var headCount: Int? = 1
    /// The spec name in the header.
    public var specName = "WhisperSpec"

    public init() {}

    /// The file's bytes and the offsets of each variable's header.
    public func bytes() -> (bytes: [UInt8], hotOffsets: [Int]) {
        var writer = Writer()
        let w = width
        var variables: [(String, [Int], DType)] = [
            ("encoder/conv1/weight", [w, melCount, 3], .f16), ("encoder/conv1/bias", [w], .f32),
            ("encoder/conv2/weight", [w, w, 3], .bf16), ("encoder/conv2/bias", [w], .f32),
            ("encoder/position_encodings/encodings", [1500, w], .i8),
        ]
        func norm(_ prefix: String) -> [(String, [Int], DType)] {
            [("\(prefix)/gamma", [w], .f32), ("\(prefix)/beta", [w], .f16)]
        }
        func linear(_ prefix: String, _ outCount: Int, _ inCount: Int) -> [(String, [Int], DType)] {
            [("\(prefix)/weight", [outCount, inCount], .f16), ("\(prefix)/bias", [outCount], .i16)]
        }
        variables += norm("encoder/layer_0/self_attention/layer_norm")
            + linear("encoder/layer_0/self_attention/linear_0", 3 * w, w)
            + linear("encoder/layer_0/self_attention/linear_1", w, w)
            + norm("encoder/layer_0/ffn/layer_norm")
            + linear("encoder/layer_0/ffn/linear_0", 4 * w, w) + linear("encoder/layer_0/ffn/linear_1", w, 4 * w)
            + norm("encoder/layer_norm")
        variables += [("decoder/embeddings/weight", [vocabularySize, w], .i8),
                      ("decoder/position_encodings/encodings", [textContext, w], .i32)]
        variables += norm("decoder/layer_0/self_attention/layer_norm")
            + linear("decoder/layer_0/self_attention/linear_0", 3 * w, w)
            + linear("decoder/layer_0/self_attention/linear_1", w, w)
            + norm("decoder/layer_0/attention/layer_norm")
            + linear("decoder/layer_0/attention/linear_0", w, w)
            + linear("decoder/layer_0/attention/linear_1", 2 * w, w)
            + linear("decoder/layer_0/attention/linear_2", w, w)
            + norm("decoder/layer_0/ffn/layer_norm")
            + linear("decoder/layer_0/ffn/linear_0", 4 * w, w) + linear("decoder/layer_0/ffn/linear_1", w, 4 * w)
            + norm("decoder/layer_norm")
        if headCount != nil { variables.append(("encoder/num_heads", [], .i32)) }

        writer.u32(6)
        writer.string(specName)
        writer.u32(1)
        writer.u32(UInt32(variables.count))
        var hot = [0]
        for (index, (name, shape, dtype)) in variables.enumerated() {
            hot.append(writer.bytes.count)
            writer.string(name)
            writer.u8(UInt8(shape.count))
            for dimension in shape { writer.u32(UInt32(dimension)) }
            writer.u8(dtype.rawValue)
            let count = shape.reduce(1, *)
            writer.u32(UInt32(count * dtype.width))
            if name == "encoder/num_heads" {
                writer.u32(UInt32(headCount ?? 1))
                continue
            }
            for element in 0..<count {
                writer.value(Float((element + index) % 7 - 3) / 8, as: dtype)
            }
        }
        hot.append(writer.bytes.count)
        writer.u32(1)
        writer.string("decoder/projection/weight")
        writer.string("decoder/embeddings/weight")
        return (writer.bytes, hot)
    }

    /// A `config.json` for this model: one alignment head, a few suppressed tokens.
    public func configJSON() -> [UInt8] {
        Array("""
        {"alignment_heads": [[0, 0]], "suppress_ids": [1, 2, 7], "suppress_ids_begin": [220, 50256], "lang_ids": []}
        """.utf8)
    }

    /// A header-only file: version, spec and a single small tensor, no aliases.
    /// Parses, then fails the Whisper checks; short enough to fuzz fast.
    public static func minimal() -> [UInt8] {
        var writer = Writer()
        writer.u32(6)
        writer.string("WhisperSpec")
        writer.u32(1)
        writer.u32(2)
        writer.string("encoder/conv1/weight")
        writer.u8(3)
        for dimension in [1, 2, 3] { writer.u32(UInt32(dimension)) }
        writer.u8(DType.f16.rawValue)
        writer.u32(12)
        for element in 0..<6 { writer.value(Float(element), as: .f16) }
        writer.string("encoder/num_heads")
        writer.u8(0)
        writer.u8(DType.i8.rawValue)
        writer.u32(1)
        writer.u8(1)
        writer.u32(0)
        return writer.bytes
    }

    enum DType: UInt8 {
        case f32 = 0, i8, i16, i32, f16, bf16
        var width: Int { switch self { case .f32, .i32: 4; case .i16, .f16, .bf16: 2; case .i8: 1 } }
    }

    /// Little-endian byte writer in the format's encodings.
    struct Writer {
        var bytes: [UInt8] = []

        mutating func u8(_ value: UInt8) { bytes.append(value) }
        mutating func u16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }

        /// `u16 length including NUL, bytes, NUL`.
        mutating func string(_ text: String) {
            u16(UInt16(text.utf8.count + 1))
            bytes += Array(text.utf8)
            bytes.append(0)
        }

        mutating func value(_ value: Float, as dtype: DType) {
            switch dtype {
            case .f32: u32(value.bitPattern)
            case .f16: u16(Float16(value).bitPattern)
            case .bf16: u16(UInt16(value.bitPattern >> 16))
            case .i8: bytes.append(UInt8(bitPattern: Int8(value * 8)))
            case .i16: u16(UInt16(bitPattern: Int16(value * 8)))
            case .i32: u32(UInt32(bitPattern: Int32(value * 8)))
            }
        }
    }
}
