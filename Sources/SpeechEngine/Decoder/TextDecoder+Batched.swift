/// One decoder forward pass for the sequences of several windows at once.
///
/// Batched decoding's gain: every linear layer (QKV, out projections, the
/// FFN, the 51,865-row logits) reads its weights once for all rows of all
/// windows instead of once per window, turning matrix-vector products into
/// small matrix products. Attention stays per window: each window's rows
/// attend to its own self-attention cache and its own audio features.
extension TextDecoder {
    /// Runs `tokens[k][s]` (every sequence of every group one length) for
    /// each group `k` over `caches[groups[k]]` and `crosses[groups[k]]`,
    /// appending to those caches. Groups not listed are left alone (windows
    /// already finished), so no cache is copied to form the batch.
    /// - Parameter logitPositions: indices into each sequence's new tokens
    ///   whose logits are wanted; nil for the last one only.
    /// - Parameter screenedLogits: as for the one-window `decode`.
    /// - Returns: per group, logits `[sequenceCount * logitPositions.count, vocabularySize]`.
    func decode(batch tokens: [[[Int]]], groups: [Int], caches: inout [SelfAttentionCache],
                crosses: [CrossAttentionCache], logitPositions: [Int]?, screenedLogits: Bool = false,
                clock: StageClock? = nil) -> [[Float]] {
        precondition(tokens.count == groups.count, "decoder batch group mismatch")
        guard let length = tokens.first?.first?.count else { return tokens.map { _ in [] } }
        let stage: StageClock.Stage = length > 1 ? .decoderPrompt : .decoderStep
        let normed = clock.measure(stage) {
            forward(batch: tokens, groups: groups, length: length, caches: &caches, crosses: crosses,
                    logitPositions: logitPositions)
        }
        let all = clock.measure(.logits) { logits(normed.hidden, rows: normed.rows, screened: screenedLogits) }
        // Split the one logits matrix back into the groups' rows.
        let vocabulary = dimensions.vocabularySize
        let positionCount = logitPositions?.count ?? 1
        var groups: [[Float]] = []
        var offset = 0
        for group in tokens {
            let count = group.count * positionCount * vocabulary
            groups.append(Array(all[offset..<(offset + count)]))
            offset += count
        }
        return groups
    }

    private func forward(batch tokens: [[[Int]]], groups: [Int], length: Int, caches: inout [SelfAttentionCache],
                         crosses: [CrossAttentionCache], logitPositions: [Int]?) -> (hidden: [Float], rows: Int) {
        let w = dimensions.width
        // Rows of the k-th listed group are firstRows[k] ..< firstRows[k + 1], sequence-major inside.
        var firstRows = [0]
        for (k, group) in tokens.enumerated() {
            let g = groups[k]
            precondition(group.count == caches[g].sequenceCount && group.allSatisfy { $0.count == length },
                         "decoder batch shape mismatch")
            precondition(caches[g].length + length <= dimensions.textContext, "decoder context overflow")
            caches[g].reserve(caches[g].length + length)
            firstRows.append(firstRows[k] + group.count * length)
        }
        let rows = firstRows.last!
        var x: [Float] = []
        x.reserveCapacity(rows * w)
        for (k, group) in tokens.enumerated() { x += embed(group, start: caches[groups[k]].length) }

        var noCapture: AlignmentCapture?
        for (layer, block) in weights.blocks.enumerated() {
            let qkv = block.selfQKV(block.selfAttentionNorm(x, rows: rows), rows: rows)
            var attended: [Float] = []
            attended.reserveCapacity(rows * w)
            for k in tokens.indices {
                let slice = Array(qkv[(firstRows[k] * 3 * w)..<(firstRows[k + 1] * 3 * w)])
                attended += selfAttention(slice, layer: layer, sequenceCount: tokens[k].count, length: length,
                                          cache: &caches[groups[k]])
            }
            addInPlace(&x, block.selfOut(attended, rows: rows))

            let query = block.crossQuery(block.crossAttentionNorm(x, rows: rows), rows: rows)
            var crossAttended: [Float] = []
            crossAttended.reserveCapacity(rows * w)
            for k in tokens.indices {
                let slice = Array(query[(firstRows[k] * w)..<(firstRows[k + 1] * w)])
                crossAttended += crossAttention(slice, rows: firstRows[k + 1] - firstRows[k], layer: layer,
                                                cross: crosses[groups[k]], capture: &noCapture)
            }
            addInPlace(&x, block.crossOut(crossAttended, rows: rows))

            var hidden = block.ffnIn(block.ffnNorm(x, rows: rows), rows: rows)
            Activation.gelu(&hidden)
            addInPlace(&x, block.ffnOut(hidden, rows: rows))
        }
        for g in groups { caches[g].length += length }

        // Only the rows whose logits are wanted go through the final projection.
        let positions = logitPositions ?? [length - 1]
        var wanted: [Float] = []
        wanted.reserveCapacity((rows / length) * positions.count * w)
        for sequenceStart in stride(from: 0, to: rows, by: length) {
            for position in positions {
                let from = (sequenceStart + position) * w
                wanted += x[from..<(from + w)]
            }
        }
        let wantedRows = (rows / length) * positions.count
        return (weights.finalNorm(wanted, rows: wantedRows), wantedRows)
    }
}
