import CBLAS
import CSpeechKernels

/// Scaled dot-product attention for one head over strided row-major views.
///
/// Computes `softmax(q · kᵀ · scale + mask) · v` for `queryCount` queries
/// against `keyCount` keys, writing `[queryCount, headWidth]` into `output`
/// (row stride `outputStride`). With `causalOffset`, query `i` may attend keys
/// `0...causalOffset + i` only (decoder self-attention over a KV cache).
/// `scores` must hold `queryCount * keyCount` floats; after the call it
/// holds the attention weights.
///
/// Decoder steps (at most `Linear.rowsThroughGEMV` query rows) run the
/// attention kernels, which read each key and value row once for all rows
/// (one sgemv per row, head and key set was 7,680 calls a beam-5 batched
/// step); longer inputs (the encoder, prompts) run two sgemms.
struct AttentionHead {
    var headWidth: Int
    var scale: Float

    /// `attend` over float keys and values at one stride (the encoder's fused q, k, v).
    func attend(query: UnsafePointer<Float>, queryStride: Int, queryCount: Int,
                key: UnsafePointer<Float>, keyStride: Int,
                value: UnsafePointer<Float>, valueStride: Int, keyCount: Int,
                causalOffset: Int?, scores: UnsafeMutablePointer<Float>,
                rawScores: UnsafeMutablePointer<Float>? = nil,
                output: UnsafeMutablePointer<Float>, outputStride: Int) {
        precondition(keyStride == valueStride, "keys and values share a stride")
        attend(query: query, queryStride: queryStride, queryCount: queryCount,
               rows: StoredRows.float(key: key, value: value, stride: keyStride, count: keyCount),
               causalOffset: causalOffset, scores: scores, rawScores: rawScores, output: output,
               outputStride: outputStride)
    }

    /// `attend` over stored rows of any element type, in float32 arithmetic
    /// (packed int8 keys: an integer product with the queries quantized in
    /// two levels). Decoder steps (up to `Linear.rowsThroughGEMV` rows) run
    /// the kernels; longer inputs (prompts) widen this head's rows and take
    /// sgemm. `vectorized` false forces the kernels' portable forms (tests).
    func attend(query: UnsafePointer<Float>, queryStride: Int, queryCount: Int, rows: StoredRows,
                causalOffset: Int? = nil, scores: UnsafeMutablePointer<Float>,
                rawScores: UnsafeMutablePointer<Float>? = nil,
                output: UnsafeMutablePointer<Float>, outputStride: Int, vectorized: Bool = true) {
        precondition(headWidth <= Int(SK_ATTENTION_MAX_WIDTH), "head width beyond the attention kernels")
        let keyCount = rows.count
        let form: Int32 = vectorized ? 2 : 0
        let step = queryCount <= Linear.rowsThroughGEMV
        if let packed = rows.keys.packed {
            packedScores(packed, keys: rows.keys.base, keyCount: keyCount, query: query, queryStride: queryStride,
                         queryCount: queryCount, into: scores, vectorized: vectorized)
        } else if step {
            computeScores(form, rows, query: query, queryStride: queryStride, queryCount: queryCount,
                          into: scores, stride: keyCount)
        } else {
            widened(rows.keys, rows) { keys, stride in
                BLAS.sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(queryCount), Int32(keyCount),
                           Int32(headWidth), scale, query, Int32(queryStride), keys, Int32(stride), 0, scores,
                           Int32(keyCount))
            }
        }
        if let rawScores { rawScores.update(from: scores, count: queryCount * keyCount) }
        for row in 0..<queryCount {
            normalize(scores + row * keyCount, row: row, keyCount: keyCount, causalOffset: causalOffset)
        }
        if step {
            applyWeights(form, rows, weights: scores, stride: keyCount, queryCount: queryCount, accumulate: false,
                         output: output, outputStride: outputStride)
        } else {
            widened(rows.values, rows) { values, stride in
                BLAS.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(queryCount), Int32(headWidth),
                           Int32(keyCount), 1, scores, Int32(keyCount), values, Int32(stride), 0, output,
                           Int32(outputStride))
            }
        }
    }

    /// Calls `body` with `part`'s rows of `rows` in float and their stride:
    /// in place for float rows, else widened into scratch.
    private func widened(_ part: StoredRows.Part, _ rows: StoredRows,
                         _ body: (UnsafePointer<Float>, Int) -> Void) {
        if part.element == SK_ELEMENT_FLOAT {
            return body(part.base.assumingMemoryBound(to: Float.self), rows.stride)
        }
        withUnsafeTemporaryAllocation(of: Float.self, capacity: rows.count * headWidth) { buffer in
            for j in 0..<rows.count {
                part.widen(j, stride: rows.stride, into: buffer.baseAddress! + j * headWidth, width: headWidth)
            }
            body(buffer.baseAddress!, headWidth)
        }
    }

    /// `scale · q · kᵀ` over packed int8 keys: each query row times the
    /// keys' channel scales and `scale`, quantized in two levels (about 14
    /// bits), then one integer product with every key (`sk_gemm_s8_residual`).
    private func packedScores(_ packed: StoredRows.Packed, keys: UnsafeRawPointer, keyCount: Int,
                              query: UnsafePointer<Float>, queryStride: Int, queryCount: Int,
                              into scores: UnsafeMutablePointer<Float>, vectorized: Bool) {
        let path = vectorized ? sk_best_path() : SK_PATH_SCALAR
        let width = Int(sk_padded_in(Int32(headWidth)))
        withUnsafeTemporaryAllocation(of: Float.self, capacity: queryCount * headWidth + 2 * queryCount + headWidth) {
            floats in
            let scaled = floats.baseAddress!, levelScales = scaled + queryCount * headWidth
            let residual = levelScales + 2 * queryCount
            for r in 0..<queryCount {
                for d in 0..<headWidth {
                    scaled[r * headWidth + d] = query[r * queryStride + d] * packed.channels[d] * scale
                }
            }
            withUnsafeTemporaryAllocation(of: Int8.self, capacity: 2 * queryCount * width) { levels in
                sk_quantize_rows_residual(path, scaled, Int32(queryCount), Int32(headWidth), levels.baseAddress!,
                                          levelScales, residual)
                let blocks = Int32(sk_padded_out(Int32(keyCount)) / 16)
                sk_gemm_s8_residual(path, levels.baseAddress!, levelScales, Int32(queryCount), Int32(headWidth),
                                    keys.assumingMemoryBound(to: Int8.self), packed.ones, packed.sums, nil,
                                    Int32(keyCount), 0, blocks, scores, Int32(keyCount))
            }
        }
    }

    /// Decoder self-attention over a cache: `sequences` sequences (beams) of
    /// `length` new query rows each, row `i` of sequence `s` at
    /// `query + (s * length + i) * queryStride` with its output at
    /// `output + (s * length + i) * outputStride`. Every row attends the
    /// `prefix` rows (the prompt, shared by all sequences and read once for
    /// all their rows) and then its sequence's own rows (`own` at
    /// `ownSequenceStride` elements per sequence), causally from
    /// `causalOffset` (positions cached before these rows, prefix included).
    /// `scores` must hold `sequences * length * (prefix.count + own.count)` floats.
    func attendCached(query: UnsafePointer<Float>, queryStride: Int, sequences: Int, length: Int,
                      prefix: StoredRows?, own: StoredRows, ownSequenceStride: Int, causalOffset: Int,
                      scores: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, outputStride: Int) {
        guard let prefix, prefix.count > 0 else {
            for s in 0..<sequences {
                attend(query: query + s * length * queryStride, queryStride: queryStride, queryCount: length,
                       rows: own.advanced(by: s * ownSequenceStride), causalOffset: causalOffset, scores: scores,
                       output: output + s * length * outputStride, outputStride: outputStride)
            }
            return
        }
        precondition(length <= Linear.rowsThroughGEMV, "a shared prefix is only for decoder steps")
        precondition(own.keys.element == SK_ELEMENT_FLOAT && own.values.element == SK_ELEMENT_FLOAT,
                     "the self-attention cache is float")
        let prefixCount = prefix.count
        let allKeys = prefixCount + own.count
        let queryRows = sequences * length
        // Scores over the prefix for every row at once, then each sequence's own keys beside them.
        computeScores(2, prefix, query: query, queryStride: queryStride, queryCount: queryRows,
                      into: scores, stride: allKeys)
        for s in 0..<sequences {
            computeScores(2, own.advanced(by: s * ownSequenceStride), query: query + s * length * queryStride,
                          queryStride: queryStride, queryCount: length,
                          into: scores + s * length * allKeys + prefixCount, stride: allKeys)
        }
        for s in 0..<sequences {
            for i in 0..<length {
                normalize(scores + (s * length + i) * allKeys, row: i, keyCount: allKeys, causalOffset: causalOffset)
            }
        }
        // Sums over the prefix for every row, continued over each sequence's own values.
        applyWeights(2, prefix, weights: scores, stride: allKeys, queryCount: queryRows, accumulate: false,
                     output: output, outputStride: outputStride)
        for s in 0..<sequences {
            applyWeights(2, own.advanced(by: s * ownSequenceStride), weights: scores + s * length * allKeys + prefixCount,
                         stride: allKeys, queryCount: length, accumulate: true,
                         output: output + s * length * outputStride, outputStride: outputStride)
        }
    }

    private func computeScores(_ form: Int32, _ rows: StoredRows, query: UnsafePointer<Float>, queryStride: Int,
                               queryCount: Int, into scores: UnsafeMutablePointer<Float>, stride: Int) {
        sk_attention_scores(form, rows.keys.element, rows.keys.base, rows.keys.rowScales, Int32(rows.stride),
                            Int32(rows.count), Int32(headWidth), query, Int32(queryStride), Int32(queryCount), scale,
                            scores, Int32(stride))
    }

    private func applyWeights(_ form: Int32, _ rows: StoredRows, weights: UnsafePointer<Float>, stride: Int,
                              queryCount: Int, accumulate: Bool, output: UnsafeMutablePointer<Float>,
                              outputStride: Int) {
        sk_attention_sums(form, rows.values.element, rows.values.base, rows.values.rowScales, Int32(rows.stride),
                          Int32(rows.count), Int32(headWidth), weights, Int32(stride), Int32(queryCount),
                          accumulate ? 1 : 0, output, Int32(outputStride))
    }

    /// Runs `body(head, scores)` for every head, each head a part the
    /// engine's threads take in turn (heads are independent, softmax
    /// included). Each thread has its own `scoresPerHead` floats of scratch
    /// for `attend`.
    static func forEachHead(count headCount: Int, scoresPerHead: Int,
                            _ body: (_ head: Int, _ scores: UnsafeMutablePointer<Float>) -> Void) {
        let threads = min(ComputeThreads.current, headCount)
        var scores = [Float](repeating: 0, count: threads * scoresPerHead)
        scores.withUnsafeMutableBufferPointer { scratch in
            ComputeThreads.split(into: headCount, threads: threads) { head, worker in
                body(head, scratch.baseAddress! + worker * scoresPerHead)
            }
        }
    }

    /// Masks keys after the causal limit of query `row`, then softmax.
    private func normalize(_ rowScores: UnsafeMutablePointer<Float>, row: Int, keyCount: Int, causalOffset: Int?) {
        if let causalOffset {
            let visible = min(keyCount, causalOffset + row + 1)
            for j in visible..<keyCount { rowScores[j] = -Float.infinity }
        }
        Activation.softmax(rowScores, count: keyCount)
    }
}
