import Foundation
@testable import SpeechEngine

/// A tiny synthetic Whisper checkpoint (width 8, 2 heads, 1 encoder and 2
/// decoder layers, 16 audio and 12 text positions, the English-only
/// vocabulary), written as a real `model.bin` + `config.json` +
/// `tokenizer.json` and loaded through `WhisperModel(directory:)`.
///
/// Every weight follows one formula that Scripts/reference/tiny_model_reference.py
/// rebuilds, so the numpy reference and the engine run the same network.
/// The tokenizer spells id `i >= 256` as `Ġw<i>`, so each such token is a word.
enum TinyWhisper {
    static let width = 8
    static let headCount = 2
    static let encoderLayerCount = 1
    static let decoderLayerCount = 2
    static let audioContext = 16
    static let textContext = 12
    static let melCount = 80
    static let special = SpecialTokens(isMultilingual: false)
    static var vocabularySize: Int { special.vocabularySize }
    static let alignmentHeads = [[0, 1], [1, 0]]

    /// `scale · sin(0.37·i + 0.11·key(name) + 0.5)`, key = UTF-8 byte sum mod 101.
    static func formula(_ name: String, count: Int, scale: Double) -> [Float] {
        let key = Double(name.utf8.reduce(0) { $0 + Int($1) } % 101)
        return (0..<count).map { Float(scale * sin(0.37 * Double($0) + 0.11 * key + 0.5)) }
    }

    /// The weight named `name`: gammas near 1, small biases, the rest ±0.4.
    static func values(_ name: String, count: Int) -> [Float] {
        if name.hasSuffix("/gamma") { return formula(name, count: count, scale: 0.2).map { 1 + $0 } }
        if name.hasSuffix("/beta") || name.hasSuffix("/bias") { return formula(name, count: count, scale: 0.05) }
        return formula(name, count: count, scale: 0.4)
    }

    /// The window's audio features `[audioContext, width]` the tests feed the decoder.
    static func features() -> [Float] { formula("features", count: audioContext * width, scale: 0.8) }

    /// Every variable of the checkpoint, CTranslate2-named, with its shape.
    static func variables() -> [(name: String, shape: [Int])] {
        let w = width
        func norm(_ prefix: String) -> [(String, [Int])] { [("\(prefix)/gamma", [w]), ("\(prefix)/beta", [w])] }
        func linear(_ prefix: String, _ outCount: Int, _ inCount: Int) -> [(String, [Int])] {
            [("\(prefix)/weight", [outCount, inCount]), ("\(prefix)/bias", [outCount])]
        }
        var list: [(String, [Int])] = [
            ("encoder/conv1/weight", [w, melCount, 3]), ("encoder/conv1/bias", [w]),
            ("encoder/conv2/weight", [w, w, 3]), ("encoder/conv2/bias", [w]),
            ("encoder/position_encodings/encodings", [audioContext, w]),
        ]
        for i in 0..<encoderLayerCount {
            let p = "encoder/layer_\(i)"
            list += norm("\(p)/self_attention/layer_norm") + linear("\(p)/self_attention/linear_0", 3 * w, w)
                + linear("\(p)/self_attention/linear_1", w, w) + norm("\(p)/ffn/layer_norm")
                + linear("\(p)/ffn/linear_0", 4 * w, w) + linear("\(p)/ffn/linear_1", w, 4 * w)
        }
        list += norm("encoder/layer_norm")
        list += [("decoder/embeddings/weight", [vocabularySize, w]), ("decoder/position_encodings/encodings", [textContext, w])]
        for i in 0..<decoderLayerCount {
            let p = "decoder/layer_\(i)"
            list += norm("\(p)/self_attention/layer_norm") + linear("\(p)/self_attention/linear_0", 3 * w, w)
                + linear("\(p)/self_attention/linear_1", w, w) + norm("\(p)/attention/layer_norm")
                + linear("\(p)/attention/linear_0", w, w) + linear("\(p)/attention/linear_1", 2 * w, w)
                + linear("\(p)/attention/linear_2", w, w) + norm("\(p)/ffn/layer_norm")
                + linear("\(p)/ffn/linear_0", 4 * w, w) + linear("\(p)/ffn/linear_1", w, 4 * w)
        }
        list += norm("decoder/layer_norm")
        return list
    }

    /// The checkpoint as a `model.bin` writer: fp32, except fp16 embeddings
    /// and, with `halfTables`, fp16 convolutions and position tables (as
    /// shipped models hold them).
    static func modelFile(halfTables: Bool = false) -> ModelFileWriter {
        var writer = ModelFileWriter()
        for (name, shape) in variables() {
            let values = values(name, count: shape.reduce(1, *))
            if name == "decoder/embeddings/weight" || (halfTables && ModelFile.isHalfTable(name)) {
                writer.add(name, shape: shape, f16: values)
            } else {
                writer.add(name, shape: shape, f32: values)
            }
        }
        writer.add("encoder/num_heads", shape: [], i32: [Int32(headCount)])
        writer.aliases = [("decoder/projection/weight", "decoder/embeddings/weight")]
        return writer
    }

    /// Writes the three files of a model folder into `directory`.
    static func write(to directory: URL, halfTables: Bool = false) throws {
        _ = try modelFile(halfTables: halfTables).write(in: directory)
        let config: [String: Any] = ["alignment_heads": alignmentHeads, "suppress_ids": [Int](),
                                     "suppress_ids_begin": [Int](), "lang_ids": [Int]()]
        try JSONSerialization.data(withJSONObject: config).write(to: directory.appendingPathComponent("config.json"))
        // Written by hand: JSONSerialization over 50,256 entries dominates a debug run.
        var vocab = ""
        for (byte, scalar) in ByteLevelAlphabet.scalarForByte.enumerated() {
            let spelling = scalar == "\"" || scalar == "\\" ? "\\\(scalar)" : String(scalar)
            vocab += "\"\(spelling)\": \(byte), "
        }
        for id in 256..<special.endOfText { vocab += "\"\u{0120}w\(id)\": \(id), " }
        vocab.removeLast(2)
        let tokenizer = """
            {"model": {"vocab": {\(vocab)}, "merges": []},
             "added_tokens": [{"id": \(special.endOfText), "content": "<|endoftext|>"}]}
            """
        try Data(tokenizer.utf8).write(to: directory.appendingPathComponent("tokenizer.json"))
    }

    private static let loaded = Result { () throws -> WhisperModel in
        let directory = try ModelFileWriter.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try write(to: directory)
        // float32: the tests over this model compare with a float reference
        // to 2e-4; its random weights give logits too close for int8 argmaxes.
        return try WhisperModel(directory: directory, computeType: .float32)
    }

    /// The tiny model, written and loaded once per test run.
    static func model() throws -> WhisperModel { try loaded.get() }

    /// The cross-attention cache over `features()`.
    static func cross(_ model: WhisperModel) -> CrossAttentionCache { cross(model.decoder) }

    /// The cross-attention cache `decoder` builds over `features()`.
    static func cross(_ decoder: TextDecoder) -> CrossAttentionCache {
        decoder.crossAttentionCache(features: features(), positionCount: audioContext)
    }
}
