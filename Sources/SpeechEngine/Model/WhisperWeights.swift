/// Weights of one encoder block (pre-norm self-attention, then pre-norm FFN).
struct EncoderBlockWeights: Sendable {
    /// `encoder/layer_N/self_attention/layer_norm` (`encoder.blocks.N.attn_ln`).
    let attentionNorm: LayerNorm
    /// `encoder/layer_N/self_attention/linear_0`: fused q, k, v rows (`attn.query/key/value`).
    let qkv: Linear
    /// `encoder/layer_N/self_attention/linear_1` (`attn.out`).
    let attentionOut: Linear
    /// `encoder/layer_N/ffn/layer_norm` (`mlp_ln`).
    let ffnNorm: LayerNorm
    /// `encoder/layer_N/ffn/linear_0` (`mlp.0`), GELU after.
    let ffnIn: Linear
    /// `encoder/layer_N/ffn/linear_1` (`mlp.2`).
    let ffnOut: Linear
}

/// Weights of one decoder block: self-attention, cross-attention, FFN.
struct DecoderBlockWeights: Sendable {
    /// `decoder/layer_N/self_attention/layer_norm` (`decoder.blocks.N.attn_ln`).
    let selfAttentionNorm: LayerNorm
    /// `decoder/layer_N/self_attention/linear_0`: fused q, k, v.
    let selfQKV: Linear
    /// `decoder/layer_N/self_attention/linear_1` (`attn.out`).
    let selfOut: Linear
    /// `decoder/layer_N/attention/layer_norm` (`cross_attn_ln`).
    let crossAttentionNorm: LayerNorm
    /// `decoder/layer_N/attention/linear_0`: cross-attention query (`cross_attn.query`).
    let crossQuery: Linear
    /// `decoder/layer_N/attention/linear_1`: fused cross k, v over the audio features.
    let crossKeyValue: Linear
    /// `decoder/layer_N/attention/linear_2` (`cross_attn.out`).
    let crossOut: Linear
    /// `decoder/layer_N/ffn/layer_norm` (`mlp_ln`).
    let ffnNorm: LayerNorm
    /// `decoder/layer_N/ffn/linear_0` (`mlp.0`).
    let ffnIn: Linear
    /// `decoder/layer_N/ffn/linear_1` (`mlp.2`).
    let ffnOut: Linear
}

/// All weights of the audio encoder.
struct EncoderWeights: Sendable {
    /// `encoder/conv1/weight` `[width, melCount, 3]` (`encoder.conv1`), k3 s1 p1,
    /// as a layer over im2col rows of `melCount * 3` (column `in * 3 + k`).
    let conv1: Linear
    /// `encoder/conv2/weight` `[width, width, 3]` (`encoder.conv2`), k3 s2 p1, likewise.
    let conv2: Linear
    /// `encoder/position_encodings/encodings` `[audioContext, width]`
    /// (sinusoids), a table read a row at a time (`Linear.copyWeightRow`).
    let positions: Linear
    let blocks: [EncoderBlockWeights]
    /// `encoder/layer_norm` (`encoder.ln_post`).
    let finalNorm: LayerNorm
}

/// All weights of the text decoder.
struct DecoderWeights: Sendable {
    /// `decoder/embeddings/weight` `[vocabularySize, width]`; also the output
    /// projection (alias `decoder/projection/weight`), no bias, no scaling:
    /// a bias-free layer whose weight rows are the token embeddings.
    let embeddings: Linear
    /// `decoder/position_encodings/encodings` `[textContext, width]`
    /// (learned), a table read a row at a time (`Linear.copyWeightRow`).
    let positions: Linear
    let blocks: [DecoderBlockWeights]
    /// `decoder/layer_norm` (`decoder.ln`).
    let finalNorm: LayerNorm
}

extension ModelFile {
    mutating func layerNorm(_ prefix: String, width: Int) throws -> LayerNorm {
        LayerNorm(gamma: try take("\(prefix)/gamma", shape: [width]), beta: try take("\(prefix)/beta", shape: [width]))
    }

    /// A `[rows, width]` table read a row at a time, in the form it was loaded in.
    mutating func table(_ name: String, rows: Int, width: Int) throws -> Linear {
        Linear(weights: try takeWeights(name, shape: [rows, width]), bias: [], inCount: width, outCount: rows)
    }

    mutating func linear(_ prefix: String, in inCount: Int, out outCount: Int) throws -> Linear {
        Linear(weights: try takeWeights("\(prefix)/weight", shape: [outCount, inCount]),
               bias: try take("\(prefix)/bias", shape: [outCount]), inCount: inCount, outCount: outCount)
    }

    /// The variables a compute type's ``WeightForm`` applies to: every
    /// linear layer's weights and the embeddings (lookups widen one row; the
    /// logits go through the matrix kernels).
    static func isWeightMatrix(_ name: String, shape: [Int]) -> Bool {
        shape.count == 2 && (name == "decoder/embeddings/weight" || (name.contains("/linear_") && name.hasSuffix("/weight")))
    }

    /// The convolutions' weights and the position tables: every type but
    /// float32 keeps them in half where the file holds them in half (5 MB of
    /// whisper-base's as float). Widened, they are the same values: the
    /// products and sums are float32's as before.
    static func isHalfTable(_ name: String) -> Bool {
        name.hasSuffix("/position_encodings/encodings") || (name.hasPrefix("encoder/conv") && name.hasSuffix("/weight"))
    }

    /// Reads the sizes from the tensor shapes, checking they are consistent.
    func dimensions() throws -> ModelDimensions {
        func shape(_ name: String) throws -> [Int] {
            guard let shape = tensors[name]?.shape else {
                throw EngineError(.invalidModelFile, "\(url.path) has no variable \(name); it is not a Whisper model. Reinstall with `speech assets install`.")
            }
            return shape
        }
        let conv1 = try shape("encoder/conv1/weight")
        let audioPositions = try shape("encoder/position_encodings/encodings")
        let embeddings = try shape("decoder/embeddings/weight")
        let textPositions = try shape("decoder/position_encodings/encodings")
        func layerCount(_ side: String) -> Int {
            var count = 0
            while tensors["\(side)/layer_\(count)/ffn/linear_0/weight"] != nil { count += 1 }
            return count
        }
        let inconsistent = { (detail: String) in
            EngineError(.invalidModelFile,
                        "\(url.path) has inconsistent Whisper shapes (\(detail)); it is corrupted or not a Whisper model. Reinstall with `speech assets install`.")
        }
        guard conv1.count == 3, conv1[2] == 3, conv1[0] > 0 else { throw inconsistent("encoder/conv1/weight is \(conv1)") }
        let width = conv1[0]
        let heads: Int
        if let declared = scalars["encoder/num_heads"] {
            // A scalar read from the file: convert only what fits an Int.
            guard declared.isFinite, declared >= 1, declared <= Double(width), declared == declared.rounded() else {
                throw inconsistent("encoder/num_heads is \(declared)")
            }
            heads = Int(declared)
        } else {
            heads = max(1, width / 64)
        }
        guard width % heads == 0 else { throw inconsistent("width \(width) is not a multiple of \(heads) heads") }
        guard Self.supportedMelCounts.contains(conv1[1]) else { throw inconsistent("\(conv1[1]) mel bins, expected 80 or 128") }
        // Transcription needs `audioContext` positions (30 s windows); a smaller
        // consistent checkpoint loads (the decoder runs on it) and
        // `Transcriber` refuses it before encoding.
        guard audioPositions.count == 2, audioPositions[0] >= 1, audioPositions[0] <= Self.audioContext,
              audioPositions[1] == width else {
            throw inconsistent("encoder positions \(audioPositions), expected [\(Self.audioContext), \(width)]")
        }
        guard textPositions.count == 2, textPositions[0] >= 1, textPositions[1] == width else {
            throw inconsistent("decoder positions \(textPositions)")
        }
        // The vocabulary fixes every special-token id: it must be one of the two Whisper sizes.
        let vocabularySizes = [true, false].map { SpecialTokens(isMultilingual: $0).vocabularySize }
        guard embeddings.count == 2, vocabularySizes.contains(embeddings[0]), embeddings[1] == width else {
            throw inconsistent("embeddings \(embeddings), expected [\(vocabularySizes[0]) or \(vocabularySizes[1]), \(width)]")
        }
        let encoderLayers = layerCount("encoder"), decoderLayers = layerCount("decoder")
        guard encoderLayers > 0, decoderLayers > 0 else { throw inconsistent("no encoder or decoder layers") }
        return ModelDimensions(melCount: conv1[1], audioContext: audioPositions[0], width: width, headCount: heads,
                               encoderLayerCount: encoderLayers, textContext: textPositions[0],
                               decoderLayerCount: decoderLayers, vocabularySize: embeddings[0])
    }

    /// Encoder positions of a 30 s window: 3000 mel frames halved by conv2.
    static let audioContext = 1500
    /// Mel bins the front end computes (80; 128 for large-v3).
    static let supportedMelCounts: Set<Int> = [80, 128]
    /// The decoder must hold a prompt and some sampled tokens (Whisper's is 448).
    static let minimumTextContext = 32

    mutating func encoderWeights(_ d: ModelDimensions) throws -> EncoderWeights {
        let w = d.width
        var blocks: [EncoderBlockWeights] = []
        for i in 0..<d.encoderLayerCount {
            let p = "encoder/layer_\(i)"
            blocks.append(EncoderBlockWeights(
                attentionNorm: try layerNorm("\(p)/self_attention/layer_norm", width: w),
                qkv: try linear("\(p)/self_attention/linear_0", in: w, out: 3 * w),
                attentionOut: try linear("\(p)/self_attention/linear_1", in: w, out: w),
                ffnNorm: try layerNorm("\(p)/ffn/layer_norm", width: w),
                ffnIn: try linear("\(p)/ffn/linear_0", in: w, out: 4 * w),
                ffnOut: try linear("\(p)/ffn/linear_1", in: 4 * w, out: w)))
        }
        return EncoderWeights(
            conv1: Linear(weights: try takeWeights("encoder/conv1/weight", shape: [w, d.melCount, 3]),
                          bias: try take("encoder/conv1/bias", shape: [w]), inCount: d.melCount * 3, outCount: w),
            conv2: Linear(weights: try takeWeights("encoder/conv2/weight", shape: [w, w, 3]),
                          bias: try take("encoder/conv2/bias", shape: [w]), inCount: w * 3, outCount: w),
            positions: try table("encoder/position_encodings/encodings", rows: d.audioContext, width: w),
            blocks: blocks,
            finalNorm: try layerNorm("encoder/layer_norm", width: w))
    }

    mutating func decoderWeights(_ d: ModelDimensions) throws -> DecoderWeights {
        let w = d.width
        var blocks: [DecoderBlockWeights] = []
        for i in 0..<d.decoderLayerCount {
            let p = "decoder/layer_\(i)"
            blocks.append(DecoderBlockWeights(
                selfAttentionNorm: try layerNorm("\(p)/self_attention/layer_norm", width: w),
                selfQKV: try linear("\(p)/self_attention/linear_0", in: w, out: 3 * w),
                selfOut: try linear("\(p)/self_attention/linear_1", in: w, out: w),
                crossAttentionNorm: try layerNorm("\(p)/attention/layer_norm", width: w),
                crossQuery: try linear("\(p)/attention/linear_0", in: w, out: w),
                crossKeyValue: try linear("\(p)/attention/linear_1", in: w, out: 2 * w),
                crossOut: try linear("\(p)/attention/linear_2", in: w, out: w),
                ffnNorm: try layerNorm("\(p)/ffn/layer_norm", width: w),
                ffnIn: try linear("\(p)/ffn/linear_0", in: w, out: 4 * w),
                ffnOut: try linear("\(p)/ffn/linear_1", in: 4 * w, out: w)))
        }
        let embeddings = try takeWeights("decoder/embeddings/weight", shape: [d.vocabularySize, w])
        tensors["decoder/projection/weight"] = nil // alias of the embeddings: drop the second reference
        return DecoderWeights(
            embeddings: Linear(weights: embeddings, bias: [], inCount: w, outCount: d.vocabularySize),
            positions: try table("decoder/position_encodings/encodings", rows: d.textContext, width: w),
            blocks: blocks,
            finalNorm: try layerNorm("decoder/layer_norm", width: w))
    }
}
