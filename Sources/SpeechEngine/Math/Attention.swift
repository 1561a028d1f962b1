import CBLAS
import CFloat16
import CSpeechKernels

/// Scaled dot-product attention for one head over strided row-major views.
///
/// Computes `softmax(q · kᵀ · scale + mask) · v` for `queryCount` queries
/// against `keyCount` keys, writing `[queryCount, headWidth]` into `output`
/// (row stride `outputStride`). With `causalOffset`, query `i` may attend keys
/// `0...causalOffset + i` only (decoder self-attention over a KV cache).
/// `scores` must hold `queryCount * (prefix.count + keyCount)` floats; after
/// the call it holds the attention weights (used for word alignment).
struct AttentionHead {
    /// Keys and values that come before `key`/`value` for every query: the
    /// prompt, cached once and shared by all beams.
    struct SharedKeys {
        var key: UnsafePointer<Float>
        var value: UnsafePointer<Float>
        var stride: Int
        var count: Int
    }

    var headWidth: Int
    var scale: Float

    func attend(query: UnsafePointer<Float>, queryStride: Int, queryCount: Int,
                key: UnsafePointer<Float>, keyStride: Int,
                value: UnsafePointer<Float>, valueStride: Int, keyCount: Int,
                prefix: SharedKeys? = nil,
                causalOffset: Int?, scores: UnsafeMutablePointer<Float>,
                rawScores: UnsafeMutablePointer<Float>? = nil,
                output: UnsafeMutablePointer<Float>, outputStride: Int) {
        if queryCount <= Linear.rowsThroughGEMV {
            // Decoder steps: one query per beam. sgemv skips the packing that
            // makes a few-row sgemm several times slower.
            let prefixCount = prefix?.count ?? 0
            let allKeys = prefixCount + keyCount
            for row in 0..<queryCount {
                let rowScores = scores + row * allKeys
                let q = query + row * queryStride
                if let prefix, prefixCount > 0 {
                    BLAS.sgemv(CblasRowMajor, CblasNoTrans, Int32(prefixCount), Int32(headWidth), scale,
                                prefix.key, Int32(prefix.stride), q, 1, 0, rowScores, 1)
                }
                BLAS.sgemv(CblasRowMajor, CblasNoTrans, Int32(keyCount), Int32(headWidth), scale,
                            key, Int32(keyStride), q, 1, 0, rowScores + prefixCount, 1)
                if let rawScores { (rawScores + row * allKeys).update(from: rowScores, count: allKeys) }
                normalize(rowScores, row: row, keyCount: allKeys, causalOffset: causalOffset)
                let out = output + row * outputStride
                if let prefix, prefixCount > 0 {
                    BLAS.sgemv(CblasRowMajor, CblasTrans, Int32(prefixCount), Int32(headWidth), 1,
                                prefix.value, Int32(prefix.stride), rowScores, 1, 0, out, 1)
                }
                BLAS.sgemv(CblasRowMajor, CblasTrans, Int32(keyCount), Int32(headWidth), 1,
                            value, Int32(valueStride), rowScores + prefixCount, 1, prefixCount > 0 ? 1 : 0, out, 1)
            }
            return
        }
        precondition((prefix?.count ?? 0) == 0, "shared keys are only for decoder steps")
        BLAS.sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(queryCount), Int32(keyCount), Int32(headWidth),
                    scale, query, Int32(queryStride), key, Int32(keyStride), 0, scores, Int32(keyCount))
        if let rawScores { rawScores.update(from: scores, count: queryCount * keyCount) }
        for row in 0..<queryCount {
            normalize(scores + row * keyCount, row: row, keyCount: keyCount, causalOffset: causalOffset)
        }
        BLAS.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(queryCount), Int32(headWidth), Int32(keyCount),
                    1, scores, Int32(keyCount), value, Int32(valueStride), 0, output, Int32(outputStride))
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

    /// `attend` without a causal mask over keys and values kept in half
    /// precision (the cross-attention cache), in float32 arithmetic. Decoder
    /// steps (up to `Linear.rowsThroughGEMV` rows) run the half kernels,
    /// which widen each key and value row once for all rows; longer inputs
    /// (prompts) widen this head's keys and values and take the float path.
    /// `vectorized` false forces the kernels' portable form (tests).
    func attend(query: UnsafePointer<Float>, queryStride: Int, queryCount: Int,
                halfKey key: UnsafePointer<UInt16>, halfValue value: UnsafePointer<UInt16>, stride: Int, keyCount: Int,
                scores: UnsafeMutablePointer<Float>, rawScores: UnsafeMutablePointer<Float>? = nil,
                output: UnsafeMutablePointer<Float>, outputStride: Int, vectorized: Bool = true) {
        precondition(headWidth <= Int(SK_HALF_ATTENTION_MAX_WIDTH), "head width beyond the half-attention kernels")
        guard queryCount <= Linear.rowsThroughGEMV else {
            var keys = [Float](repeating: 0, count: keyCount * headWidth)
            var values = keys
            keys.withUnsafeMutableBufferPointer { k in
                values.withUnsafeMutableBufferPointer { v in
                    for j in 0..<keyCount {
                        cf16_to_f32(key + j * stride, k.baseAddress! + j * headWidth, headWidth)
                        cf16_to_f32(value + j * stride, v.baseAddress! + j * headWidth, headWidth)
                    }
                    attend(query: query, queryStride: queryStride, queryCount: queryCount,
                           key: k.baseAddress!, keyStride: headWidth, value: v.baseAddress!, valueStride: headWidth,
                           keyCount: keyCount, causalOffset: nil, scores: scores, rawScores: rawScores,
                           output: output, outputStride: outputStride)
                }
            }
            return
        }
        let vector: Int32 = vectorized ? 2 : 0
        sk_attention_scores_f16(vector, key, Int32(stride), Int32(keyCount), Int32(headWidth),
                                query, Int32(queryStride), Int32(queryCount), scale, scores)
        if let rawScores { rawScores.update(from: scores, count: queryCount * keyCount) }
        for row in 0..<queryCount {
            normalize(scores + row * keyCount, row: row, keyCount: keyCount, causalOffset: nil)
        }
        sk_attention_sums_f16(vector, value, Int32(stride), Int32(keyCount), Int32(headWidth),
                              scores, Int32(queryCount), output, Int32(outputStride))
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
