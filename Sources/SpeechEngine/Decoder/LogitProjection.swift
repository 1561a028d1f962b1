import CSpeechKernels

/// The decoder's last product, logits `[rows, width] · Eᵀ` through the
/// token embeddings (51,865 rows for a multilingual model), screened: every
/// logit first through an int8 copy of the embeddings (half the bytes of the
/// half-precision matrix, VNNI's integer products), its activations in two
/// int8 levels (`integerWithResidual`), then again from the half weights
/// exactly where a value can decide something: each row's tokens within
/// ``margin`` of its best (at least its ``least`` best), and every token
/// from ``exactFrom`` on (the timestamps, whose total the timestamp rule
/// weighs against the best text token). The rest keep their int8 values:
/// more than ``margin`` below the row's best and outside its ``least`` best,
/// with only the weights' rounding (about 0.09 RMS on whisper-base's hidden
/// rows, at most 0.63), which moves no choice and the log-softmax's
/// normaliser by less than 1e-3 (median 7e-6; Benchmarks/RESULTS.md,
/// "Screened logits"; `LogitProjectionTests`).
///
/// Exact values are the bits the few-row half product (`sk_gemv_f16`) gives
/// them, so for up to `Linear.rowsThroughGEMV` rows (greedy steps, one
/// window's beams) the tokens chosen are those the unscreened product
/// chooses; longer batches' unscreened product adds in another order.
/// Without a screen (`float32`, whose reference this is, and the int8 types,
/// whose embeddings are int8 already) the projection is the layer itself.
struct LogitProjection: Sendable {
    let embeddings: Linear
    /// The int8 copy, when the embeddings are half precision.
    let screen: QuantizedMatrix?
    /// Tokens from here on are always exact (`timestampBegin`).
    let exactFrom: Int

    /// How far below a row's best logit a token is still computed exactly.
    static let margin: Float = 4
    /// At least this many of a row's best tokens are exact, however far
    /// ahead the best is (beam search takes each beam's few best).
    static let least = 16
    /// A row with more tokens than this within the margin (a nearly flat
    /// distribution) is computed exactly whole.
    static let capacity = 2048

    /// - Parameter screened: whether to keep the int8 copy (half embeddings only).
    init(embeddings: Linear, exactFrom: Int, screened: Bool) {
        precondition(exactFrom >= 0 && exactFrom <= embeddings.outCount, "LogitProjection exactFrom out of range")
        self.embeddings = embeddings
        self.exactFrom = exactFrom
        guard screened, case .half(let half) = embeddings.weights else {
            screen = nil
            return
        }
        // Quantized a block of rows at a time: never the whole matrix as float.
        var matrix = QuantizedMatrix(outCount: half.outCount, inCount: half.inCount, arithmetic: .integerWithResidual)
        let blockRows = 1024
        var block = [Float](repeating: 0, count: blockRows * half.inCount)
        block.withUnsafeMutableBufferPointer { rows in
            var first = 0
            while first < half.outCount {
                let count = min(blockRows, half.outCount - first)
                for i in 0..<count { half.copyRow(first + i, into: rows.baseAddress! + i * half.inCount) }
                matrix.setRows(rows.baseAddress!, first: first, count: count)
                first += count
            }
        }
        screen = matrix
    }

    /// Bytes the int8 copy adds to the embeddings'.
    var screenByteCount: Int { screen?.byteCount ?? 0 }

    /// - Parameter screened: false for every logit exact (sampling at a
    ///   temperature draws from the whole distribution; word alignment reads
    ///   given tokens' probabilities).
    /// - Shape: `hidden` is `[rows, width]`; returns `[rows, vocabularySize]`.
    func callAsFunction(_ hidden: [Float], rows: Int, screened: Bool) -> [Float] {
        guard screened, let screen, case .half(let exact) = embeddings.weights else {
            return embeddings(hidden, rows: rows)
        }
        let width = embeddings.inCount, vocabulary = embeddings.outCount
        precondition(hidden.count == rows * width, "LogitProjection input shape mismatch")
        // Uninitialized: the screen writes every logit (zero-filling first
        // was 8 MB of stores a batched beam-5 step).
        return [Float](unsafeUninitializedCapacity: rows * vocabulary) { out, initialized in
            hidden.withUnsafeBufferPointer { x in
                let x = x.baseAddress!, out = out.baseAddress!
                screen.multiply(x, rows: rows, bias: [], into: out)
                exact.multiply(x, rows: rows, outputs: exactFrom..<vocabulary, into: out)
                refineContenders(x, rows: rows, exact: exact, into: out)
            }
            initialized = rows * vocabulary
        }
    }

    /// Each row's contenders (below `exactFrom`) recomputed from the half weights.
    private func refineContenders(_ x: UnsafePointer<Float>, rows: Int, exact: HalfMatrix,
                                  into out: UnsafeMutablePointer<Float>) {
        let width = embeddings.inCount, vocabulary = embeddings.outCount, exactFrom = exactFrom
        let threads = ComputeThreads.current
        // Per-worker scratch: indices and their exact values.
        var scratch = [Int32](repeating: 0, count: threads * Self.capacity)
        var values = [Float](repeating: 0, count: threads * Self.capacity)
        exact.bits.withUnsafeBufferPointer { w in
            scratch.withUnsafeMutableBufferPointer { scratch in
                values.withUnsafeMutableBufferPointer { values in
                    let scratch = scratch.baseAddress!, values = values.baseAddress!
                    ComputeThreads.split(into: rows, threads: threads) { row, worker in
                        let input = x + row * width, logits = out + row * vocabulary
                        let indices = scratch + worker * Self.capacity, exactValues = values + worker * Self.capacity
                        let count = Int(sk_logit_contenders(1, logits, Int32(exactFrom), Self.margin, Int32(Self.least),
                                                            indices, Int32(Self.capacity)))
                        guard count >= 0 else {
                            // A nearly flat row: every token exact.
                            return sk_gemv_f16(3, w.baseAddress!, input, 1, Int32(width), nil, 0, Int32(exactFrom),
                                               logits, Int32(vocabulary))
                        }
                        sk_gemv_f16_rows(3, w.baseAddress!, input, Int32(width), indices, Int32(count), exactValues)
                        for i in 0..<count { logits[Int(indices[i])] = exactValues[i] }
                    }
                }
            }
        }
    }
}
