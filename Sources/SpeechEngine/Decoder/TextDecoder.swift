import CBLAS

/// Whisper's text decoder: token and position embeddings, blocks of causal
/// self-attention (over a KV cache) and cross-attention (over the audio),
/// final layer norm, logits through the embedding matrix.
/// ref: whisper/model.py `TextDecoder.forward`
struct TextDecoder: Sendable {
    let weights: DecoderWeights
    let dimensions: ModelDimensions
    /// How cross-attention keys and values are kept (`ComputeType.crossAttentionPrecision`).
    var crossAttentionPrecision = (keys: CrossAttentionCache.Precision.float, values: CrossAttentionCache.Precision.float)
    /// The logits through the embeddings (screened in int8 where they are half).
    let projection: LogitProjection

    /// Cross-attention raw scores `q·kᵀ/√d` of selected heads, captured for
    /// word alignment. - Shape: per head `[tokenCount, positionCount]`.
    struct AlignmentCapture {
        var heads: [(layer: Int, head: Int)]
        var scores: [[Float]] = []
    }

    func makeSelfAttentionCache(sequenceCount: Int) -> SelfAttentionCache {
        SelfAttentionCache(layerCount: dimensions.decoderLayerCount, width: dimensions.width,
                           capacity: dimensions.textContext, sequenceCount: sequenceCount)
    }

    /// Projects the encoder output into every layer's cross-attention keys
    /// and values, kept in `crossAttentionPrecision`.
    /// - Shape: `features` is `[positionCount, width]`.
    func crossAttentionCache(features: [Float], positionCount: Int) -> CrossAttentionCache {
        CrossAttentionCache(layerCount: weights.blocks.count, positionCount: positionCount,
                            width: dimensions.width, headWidth: dimensions.headWidth,
                            precision: crossAttentionPrecision) { layer in
            weights.blocks[layer].crossKeyValue(features, rows: positionCount)
        }
    }

    /// Runs `tokens[s]` for every sequence `s` (all the same length) at the
    /// positions after those in `cache`, appending to the cache.
    /// - Parameter logitPositions: indices into each sequence's new tokens
    ///   whose logits are wanted; nil for the last one only.
    /// - Returns: logits `[sequenceCount * logitPositions.count, vocabularySize]`,
    ///   sequence-major.
    /// - Parameter screenedLogits: whether the logits may be screened
    ///   (`LogitProjection`): exact where they can decide a greedy or beam
    ///   choice. Off, every logit is exact.
    /// - Parameter clock: when given, the pass counts as `decode.prompt` (several
    ///   tokens per sequence) or `decode.step` (one), its projection as `decode.logits`.
    func decode(_ tokens: [[Int]], cache: inout SelfAttentionCache, cross: CrossAttentionCache,
                logitPositions: [Int]?, capture: inout AlignmentCapture?, screenedLogits: Bool = false,
                clock: StageClock? = nil) -> [Float] {
        let stage: StageClock.Stage = tokens.first.map { $0.count > 1 } ?? false ? .decoderPrompt : .decoderStep
        let normed = clock.measure(stage) {
            forward(tokens, cache: &cache, cross: cross, logitPositions: logitPositions, capture: &capture)
        }
        return clock.measure(.logits) { logits(normed.hidden, rows: normed.rows, screened: screenedLogits) }
    }

    /// The decoder blocks and the final layer norm of the wanted rows, without the logits projection.
    private func forward(_ tokens: [[Int]], cache: inout SelfAttentionCache, cross: CrossAttentionCache,
                         logitPositions: [Int]?, capture: inout AlignmentCapture?) -> (hidden: [Float], rows: Int) {
        let d = dimensions
        let w = d.width
        let sequenceCount = tokens.count
        let length = tokens[0].count
        precondition(sequenceCount == cache.sequenceCount && tokens.allSatisfy { $0.count == length },
                     "decoder batch shape mismatch")
        precondition(cache.length + length <= d.textContext, "decoder context overflow")
        cache.reserve(cache.length + length)
        let rows = sequenceCount * length
        let start = cache.length

        var x = embed(tokens, start: start)
        if capture != nil { capture!.scores = Array(repeating: [], count: capture!.heads.count) }
        for (layer, block) in weights.blocks.enumerated() {
            let qkv = block.selfQKV(block.selfAttentionNorm(x, rows: rows), rows: rows)
            let attended = selfAttention(qkv, layer: layer, sequenceCount: sequenceCount, length: length, cache: &cache)
            addInPlace(&x, block.selfOut(attended, rows: rows))

            let query = block.crossQuery(block.crossAttentionNorm(x, rows: rows), rows: rows)
            let crossAttended = crossAttention(query, rows: rows, layer: layer, cross: cross, capture: &capture)
            addInPlace(&x, block.crossOut(crossAttended, rows: rows))

            var hidden = block.ffnIn(block.ffnNorm(x, rows: rows), rows: rows)
            Activation.gelu(&hidden)
            addInPlace(&x, block.ffnOut(hidden, rows: rows))
        }
        cache.length += length

        // Only the rows whose logits are wanted go through the final projection.
        let positions = logitPositions ?? [length - 1]
        var wanted = [Float](repeating: 0, count: sequenceCount * positions.count * w)
        for s in 0..<sequenceCount {
            for (k, position) in positions.enumerated() {
                let from = (s * length + position) * w
                let to = (s * positions.count + k) * w
                wanted.replaceSubrange(to..<(to + w), with: x[from..<(from + w)])
            }
        }
        let wantedRows = sequenceCount * positions.count
        return (weights.finalNorm(wanted, rows: wantedRows), wantedRows)
    }

    /// Token plus position embeddings of `tokens[s]` at positions from `start`.
    /// - Returns: `[sequenceCount * length, width]`, sequence-major.
    func embed(_ tokens: [[Int]], start: Int) -> [Float] {
        let w = dimensions.width
        let length = tokens.first?.count ?? 0
        var x = [Float](repeating: 0, count: tokens.count * length * w)
        x.withUnsafeMutableBufferPointer { out in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: w) { position in
                for s in tokens.indices {
                    for (i, token) in tokens[s].enumerated() {
                        let row = out.baseAddress! + (s * length + i) * w
                        weights.embeddings.copyWeightRow(token, into: row)
                        weights.positions.copyWeightRow(start + i, into: position.baseAddress!)
                        for j in 0..<w { row[j] += position[j] }
                    }
                }
            }
        }
        return x
    }

    /// Logits through the embedding matrix: `[rows, width] · Eᵀ`.
    func logits(_ hidden: [Float], rows: Int, screened: Bool) -> [Float] {
        projection(hidden, rows: rows, screened: screened)
    }

    /// Causal self-attention of the new tokens over the cached ones.
    func selfAttention(_ qkv: [Float], layer: Int, sequenceCount: Int, length: Int,
                               cache: inout SelfAttentionCache) -> [Float] {
        let d = dimensions
        let w = d.width
        let start = cache.length
        let total = start + length
        // Append this step's keys and values to the cache.
        let capacity = cache.capacity
        let prefixLength = cache.prefixLength
        qkv.withUnsafeBufferPointer { src in
            cache.keys[layer].withUnsafeMutableBufferPointer { k in
                cache.values[layer].withUnsafeMutableBufferPointer { v in
                    for s in 0..<sequenceCount {
                        for i in 0..<length {
                            let row = src.baseAddress! + (s * length + i) * 3 * w
                            let slot = (s * capacity + start + i - prefixLength) * w
                            (k.baseAddress! + slot).update(from: row + w, count: w)
                            (v.baseAddress! + slot).update(from: row + 2 * w, count: w)
                        }
                    }
                }
            }
        }
        let head = AttentionHead(headWidth: d.headWidth, scale: 1 / Float(d.headWidth).squareRoot())
        var output = [Float](repeating: 0, count: sequenceCount * length * w)
        qkv.withUnsafeBufferPointer { q in
            cache.keys[layer].withUnsafeBufferPointer { k in
                cache.values[layer].withUnsafeBufferPointer { v in
                    cache.prefixKeys[layer].withUnsafeBufferPointer { pk in
                        cache.prefixValues[layer].withUnsafeBufferPointer { pv in
                            output.withUnsafeMutableBufferPointer { out in
                                AttentionHead.forEachHead(count: d.headCount,
                                                          scoresPerHead: sequenceCount * length * total) { h, scores in
                                    let offset = h * d.headWidth
                                    let prefix = prefixLength == 0 ? nil : AttentionHead.StoredRows.float(
                                        key: pk.baseAddress! + offset, value: pv.baseAddress! + offset,
                                        stride: w, count: prefixLength)
                                    let own = AttentionHead.StoredRows.float(
                                        key: k.baseAddress! + offset, value: v.baseAddress! + offset,
                                        stride: w, count: total - prefixLength)
                                    head.attendCached(query: q.baseAddress! + offset, queryStride: 3 * w,
                                                      sequences: sequenceCount, length: length,
                                                      prefix: prefix, own: own,
                                                      ownSequenceStride: capacity * w, causalOffset: start,
                                                      scores: scores, output: out.baseAddress! + offset,
                                                      outputStride: w)
                                }
                            }
                        }
                    }
                }
            }
        }
        return output
    }

    /// Cross-attention of every row over the window's audio features.
    func crossAttention(_ query: [Float], rows: Int, layer: Int, cross: CrossAttentionCache,
                                capture: inout AlignmentCapture?) -> [Float] {
        let d = dimensions
        let w = d.width
        let positions = cross.positionCount
        let head = AttentionHead(headWidth: d.headWidth, scale: 1 / Float(d.headWidth).squareRoot())
        var output = [Float](repeating: 0, count: rows * w)
        // Raw scores of the alignment heads in this layer, one buffer each.
        let capturedHeads = capture?.heads.filter { $0.layer == layer }.map(\.head) ?? []
        var captured = [Float](repeating: 0, count: capturedHeads.count * rows * positions)
        query.withUnsafeBufferPointer { q in
            output.withUnsafeMutableBufferPointer { out in
                captured.withUnsafeMutableBufferPointer { raw in
                    cross.withRows(layer: layer) { rowsOfHead in
                        // Each head at its column offset, with its scratch and, for an alignment head, its raw scores.
                        AttentionHead.forEachHead(count: d.headCount, scoresPerHead: rows * positions) { h, scores in
                            let rawScores = capturedHeads.firstIndex(of: h).map { raw.baseAddress! + $0 * rows * positions }
                            head.attend(query: q.baseAddress! + h * d.headWidth, queryStride: w, queryCount: rows,
                                        rows: rowsOfHead(h), scores: scores, rawScores: rawScores,
                                        output: out.baseAddress! + h * d.headWidth, outputStride: w)
                        }
                    }
                }
            }
        }
        if capture != nil {
            let size = rows * positions
            for (index, pair) in capture!.heads.enumerated() where pair.layer == layer {
                let slot = capturedHeads.firstIndex(of: pair.head)!
                capture!.scores[index] = Array(captured[(slot * size)..<((slot + 1) * size)])
            }
        }
        return output
    }
}
