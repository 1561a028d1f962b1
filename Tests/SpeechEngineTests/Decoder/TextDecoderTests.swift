import Testing
@testable import SpeechEngine

/// The decoder forward pass on the tiny checkpoint against
/// Scripts/reference/tiny_model_reference.py's port of whisper/model.py.
@Suite struct TextDecoderTests {
    /// Float32 BLAS against float64 numpy on logits of magnitude ~10.
    static let logitTolerance = 2e-4

    func decodeAll(_ model: WhisperModel, _ tokens: [Int]) -> [Float] {
        var cache = model.decoder.makeSelfAttentionCache(sequenceCount: 1)
        var capture: TextDecoder.AlignmentCapture?
        return model.decoder.decode([tokens], cache: &cache, cross: TinyWhisper.cross(model),
                                    logitPositions: Array(tokens.indices), capture: &capture)
    }

    @Test func logitsMatchTheReferenceAtEveryPosition() throws {
        let model = try TinyWhisper.model()
        let reference = try TinyModelReferenceData.shared().decoder
        let vocabulary = model.dimensions.vocabularySize
        let logits = decodeAll(model, reference.tokens)
        #expect(logits.count == reference.tokens.count * vocabulary)
        var worst = 0.0
        for position in reference.tokens.indices {
            let row = Array(logits[(position * vocabulary)..<((position + 1) * vocabulary)])
            for (k, id) in reference.ids.enumerated() {
                worst = max(worst, abs(Double(row[id]) - reference.logits[position][k]))
            }
            let logSumExp = row.withUnsafeBufferPointer { VectorMath.logSumExp($0.baseAddress!, count: vocabulary) }
            #expect(abs(Double(logSumExp) - reference.logSumExp[position]) < Self.logitTolerance, "position \(position)")
            #expect(DecodingLoop.argmax(row, from: 0, count: vocabulary) == reference.argmax[position], "position \(position)")
        }
        #expect(worst < Self.logitTolerance, "largest logit difference from the reference: \(worst)")
    }

    /// The cross-attention cache in half (every compute type but float32 and
    /// int8-mixed) holds half the bytes and moves the logits only by the
    /// keys' and values' rounding (2⁻¹¹ relative); in int8 (int8-mixed) a
    /// quarter and scales, and half a step in 127 of a key channel's or a
    /// value row's largest value. At every
    /// position, whether the positions run at once (the prompt path) or one
    /// step at a time (the kernels), no position's best token changes.
    @Test(arguments: [ComputeType.float16Weights, .int8Mixed])
    func aNarrowCrossAttentionCacheKeepsTheLogits(_ type: ComputeType) throws {
        let model = try TinyWhisper.model()
        let tokens = try TinyModelReferenceData.shared().decoder.tokens
        let vocabulary = model.dimensions.vocabularySize
        var half = model.decoder
        half.crossAttentionPrecision = type.crossAttentionPrecision
        let floatCross = TinyWhisper.cross(model), halfCross = TinyWhisper.cross(half)
        let floatBytes = floatCross.byteCount
        switch (halfCross.keys[0], halfCross.values[0], floatCross.keys[0]) {
        case (.half, .half, .float):
            #expect(halfCross.byteCount * 2 == floatBytes)
        case (.packed(let packed), .int8, .float):
            // A byte a value, a float scale per key channel and per head's row of values, and for
            // the packed keys rows padded to 16, a byte sum per row and head and a unit scale per row.
            let d = model.dimensions
            let (positions, padded) = (halfCross.positionCount, packed.paddedCount)
            #expect(padded == (positions + 15) / 16 * 16)
            let scales = 4 * d.decoderLayerCount * (d.width + positions * d.headCount)
            let keyExtras = d.decoderLayerCount * ((padded - positions) * d.width + 4 * padded * (d.headCount + 1))
            #expect(halfCross.byteCount == floatBytes / 4 + scales + keyExtras)
        default:
            Issue.record("\(type): cache storage does not follow crossAttentionPrecision")
            return
        }
        let expected = decodeAll(model, tokens)
        var capture: TextDecoder.AlignmentCapture?
        var cache = half.makeSelfAttentionCache(sequenceCount: 1)
        let onePass = half.decode([tokens], cache: &cache, cross: halfCross, logitPositions: Array(tokens.indices),
                                  capture: &capture)
        cache = half.makeSelfAttentionCache(sequenceCount: 1)
        var stepwise = half.decode([[tokens[0]]], cache: &cache, cross: halfCross, logitPositions: nil, capture: &capture)
        for token in tokens.dropFirst() {
            stepwise += half.decode([[token]], cache: &cache, cross: halfCross, logitPositions: nil, capture: &capture)
        }
        for (name, logits) in [("one pass", onePass), ("step by step", stepwise)] {
            #expect(logits.count == expected.count)
            let worst = zip(logits, expected).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst < (type == .float16Weights ? 5e-3 : 2e-3), "\(type), \(name): largest logit difference \(worst)")
            for position in tokens.indices {
                let range = (position * vocabulary)..<((position + 1) * vocabulary)
                #expect(DecodingLoop.argmax(Array(logits[range]), from: 0, count: vocabulary)
                        == DecodingLoop.argmax(Array(expected[range]), from: 0, count: vocabulary), "\(name), position \(position)")
            }
        }
    }

    /// Decoding token by token over the cache gives what one pass over the whole sequence gives.
    @Test func incrementalDecodingMatchesOnePass() throws {
        let model = try TinyWhisper.model()
        let tokens = try TinyModelReferenceData.shared().decoder.tokens
        let vocabulary = model.dimensions.vocabularySize
        let whole = decodeAll(model, tokens)
        var cache = model.decoder.makeSelfAttentionCache(sequenceCount: 1)
        var capture: TextDecoder.AlignmentCapture?
        let cross = TinyWhisper.cross(model)
        var last = model.decoder.decode([Array(tokens.prefix(2))], cache: &cache, cross: cross, logitPositions: nil,
                                        capture: &capture)
        for token in tokens.dropFirst(2) {
            last = model.decoder.decode([[token]], cache: &cache, cross: cross, logitPositions: nil, capture: &capture)
        }
        #expect(cache.length == tokens.count)
        let expected = whole[((tokens.count - 1) * vocabulary)...]
        let worst = zip(last, expected).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-4, "largest difference: \(worst)")
    }

    /// Beams decoded together over a fanned-out cache match each decoded alone.
    @Test func batchedSequencesMatchSeparateOnes() throws {
        let model = try TinyWhisper.model()
        let vocabulary = model.dimensions.vocabularySize
        let cross = TinyWhisper.cross(model)
        let prompt = [TinyWhisper.special.startOfTranscript, TinyWhisper.special.noTimestamps]
        var capture: TextDecoder.AlignmentCapture?
        var cache = model.decoder.makeSelfAttentionCache(sequenceCount: 1)
        _ = model.decoder.decode([prompt], cache: &cache, cross: cross, logitPositions: nil, capture: &capture)
        cache.reorder([0, 0])
        let batched = model.decoder.decode([[300], [257]], cache: &cache, cross: cross, logitPositions: nil, capture: &capture)
        for (index, token) in [300, 257].enumerated() {
            let alone = decodeAll(model, prompt + [token]).suffix(vocabulary)
            let row = batched[(index * vocabulary)..<((index + 1) * vocabulary)]
            let worst = zip(row, alone).map { abs($0 - $1) }.max() ?? 0
            #expect(worst < 1e-4, "sequence \(index): largest difference \(worst)")
        }
    }

    @Test func alignmentCaptureHoldsOneScoreMatrixPerHead() throws {
        let model = try TinyWhisper.model()
        let tokens = try TinyModelReferenceData.shared().decoder.tokens
        var cache = model.decoder.makeSelfAttentionCache(sequenceCount: 1)
        var capture: TextDecoder.AlignmentCapture? = TextDecoder.AlignmentCapture(heads: [(0, 1), (1, 0)])
        _ = model.decoder.decode([tokens], cache: &cache, cross: TinyWhisper.cross(model), logitPositions: nil,
                                 capture: &capture)
        #expect(capture?.scores.map(\.count) == [tokens.count * 16, tokens.count * 16])
        #expect(capture?.scores[0] != capture?.scores[1])
    }
}
