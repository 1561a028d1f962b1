import CBLAS
import CSpeechKernels
import Foundation

/// A weight matrix `[outCount, inCount]` kept as int8, symmetric, one scale
/// per output row (CTranslate2's int8 type), packed for the kernels of
/// `CSpeechKernels` (blocks of 16 rows × groups of 4 inputs; see its header).
/// Only this copy is kept: a quarter of the float weights' memory.
struct QuantizedMatrix: Sendable {
    /// How products with the int8 weights are computed.
    enum Arithmetic: Sendable, Hashable {
        /// Activations quantized per row too, int8 products summed in int32
        /// (`ComputeType.int8`): the fastest, and the least accurate where a
        /// row of activations has outliers.
        case integer
        /// Activations kept float, weights dequantized as they are read
        /// (`ComputeType.int8Weights`): the weights' rounding only.
        case float
        /// As `integer`, with what each activation row's quantization left
        /// over quantized again and multiplied too: twice the integer
        /// products for activations to about 14 bits, so the error is the
        /// weights' rounding, which differs from output to output instead
        /// of moving them all together (`LogitProjection`'s screen).
        case integerWithResidual
    }

    let inCount: Int
    let outCount: Int
    /// What `multiply` runs.
    let arithmetic: Arithmetic
    /// `sk_padded_out(outCount) * sk_padded_in(inCount)` bytes.
    private(set) var packed: [Int8]
    /// Per output row: `max|w| / 127`.
    private(set) var scales: [Float]
    /// Per output row: the sum of its int8 weights (the VNNI path's correction).
    private(set) var sums: [Int32]

    /// An all-zero matrix whose rows `setRows` fills (loading quantizes a
    /// tensor piece by piece as it is read, never holding it all as float).
    init(outCount: Int, inCount: Int, arithmetic: Arithmetic = .integer) {
        precondition(outCount > 0 && inCount > 0 && outCount <= Int(Int32.max) && inCount <= Int(Int32.max),
                     "QuantizedMatrix shape")
        self.inCount = inCount
        self.outCount = outCount
        self.arithmetic = arithmetic
        packed = [Int8](repeating: 0, count: Int(sk_padded_out(Int32(outCount))) * Int(sk_padded_in(Int32(inCount))))
        scales = [Float](repeating: 0, count: outCount)
        sums = [Int32](repeating: 0, count: outCount)
    }

    /// Quantizes a whole float matrix.
    /// - Shape: `weight` is `[outCount, inCount]` row-major.
    init(weight: [Float], outCount: Int, inCount: Int, arithmetic: Arithmetic = .integer) {
        precondition(weight.count == outCount * inCount, "QuantizedMatrix shape mismatch")
        self.init(outCount: outCount, inCount: inCount, arithmetic: arithmetic)
        weight.withUnsafeBufferPointer { setRows($0.baseAddress!, first: 0, count: outCount) }
    }

    /// Quantizes rows `first ..< first + count` from `rows` (`[count, inCount]`).
    mutating func setRows(_ rows: UnsafePointer<Float>, first: Int, count: Int) {
        precondition(first >= 0 && count >= 0 && first + count <= outCount, "QuantizedMatrix rows out of range")
        packed.withUnsafeMutableBufferPointer { p in
            scales.withUnsafeMutableBufferPointer { s in
                sums.withUnsafeMutableBufferPointer { t in
                    sk_pack_rows(rows, Int32(first), Int32(count), Int32(inCount), p.baseAddress!, s.baseAddress!,
                                 t.baseAddress!)
                }
            }
        }
    }

    /// Row `row` dequantized into `output[inCount]` (embedding lookups).
    func copyRow(_ row: Int, into output: UnsafeMutablePointer<Float>) {
        precondition(row >= 0 && row < outCount, "QuantizedMatrix row out of range")
        packed.withUnsafeBufferPointer { p in
            scales.withUnsafeBufferPointer { s in
                sk_unpack_row(p.baseAddress!, s.baseAddress!, Int32(row), Int32(inCount), output)
            }
        }
    }

    /// `output = input · Wᵀ (+ bias)` in this matrix's ``arithmetic``.
    /// Threads split the output rows in 16-row blocks, so every weight is
    /// read from memory once per call however many input rows there are
    /// (decoder steps are memory bound).
    /// - Shape: `input` is `[rows, inCount]`, `output` `[rows, outCount]`;
    ///   `bias` is empty or `[outCount]`.
    func multiply(_ input: UnsafePointer<Float>, rows: Int, bias: [Float], into output: UnsafeMutablePointer<Float>,
                  path: KernelPath = .best) {
        precondition(bias.isEmpty || bias.count == outCount, "QuantizedMatrix bias shape")
        guard rows > 0 else { return }
        switch arithmetic {
        case .integer: multiplyInIntegers(input, rows: rows, levels: 1, bias: bias, into: output, path: path)
        case .integerWithResidual: multiplyInIntegers(input, rows: rows, levels: 2, bias: bias, into: output, path: path)
        case .float: multiplyInFloat(input, rows: rows, bias: bias, into: output, path: path)
        }
    }

    /// Activations quantized per row (`levels` 2: and their residual),
    /// int8 products summed in int32, scaled back to float.
    private func multiplyInIntegers(_ input: UnsafePointer<Float>, rows: Int, levels: Int, bias: [Float],
                                    into output: UnsafeMutablePointer<Float>, path: KernelPath) {
        let padded = Int(sk_padded_in(Int32(inCount)))
        var activations = [Int8](repeating: 0, count: rows * levels * padded)
        var activationScales = [Float](repeating: 0, count: rows * levels)
        activations.withUnsafeMutableBufferPointer { q in
            activationScales.withUnsafeMutableBufferPointer { s in
                // An encoder window's rows (1500 × 2048 into the second
                // feed-forward layer) are quantized by every thread, a share each.
                let parts = rows >= 64 ? ComputeThreads.shares(of: rows / 16) : 1
                ComputeThreads.split(into: parts) { part in
                    let first = part * rows / parts, end = (part + 1) * rows / parts
                    let x = input + first * inCount, q = q.baseAddress! + first * levels * padded
                    let s = s.baseAddress! + first * levels
                    if levels == 1 {
                        return sk_quantize_rows(path.kernel, x, Int32(end - first), Int32(inCount), q, s)
                    }
                    withUnsafeTemporaryAllocation(of: Float.self, capacity: inCount) { residual in
                        sk_quantize_rows_residual(path.kernel, x, Int32(end - first), Int32(inCount), q, s,
                                                  residual.baseAddress!)
                    }
                }
            }
        }
        let gemm = levels == 1 ? sk_gemm_s8 : sk_gemm_s8_residual
        let blocks = Int(sk_padded_out(Int32(outCount))) / 16
        let parts = ComputeThreads.shares(of: blocks)
        activations.withUnsafeBufferPointer { q in
            activationScales.withUnsafeBufferPointer { qs in
                packed.withUnsafeBufferPointer { p in
                    scales.withUnsafeBufferPointer { ws in
                        sums.withUnsafeBufferPointer { wsum in
                            bias.withUnsafeBufferPointer { b in
                                ComputeThreads.split(into: parts) { part in
                                    gemm(path.kernel, q.baseAddress!, qs.baseAddress!, Int32(rows), Int32(inCount),
                                               p.baseAddress!, ws.baseAddress!, wsum.baseAddress!,
                                               bias.isEmpty ? nil : b.baseAddress!, Int32(outCount),
                                               Int32(part * blocks / parts), Int32((part + 1) * blocks / parts),
                                               output, Int32(outCount))
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Float activations against dequantized weights. Up to
    /// `Linear.rowsThroughGEMV` rows (decoder steps) the fused kernel reads
    /// each int8 weight once per row from cache; longer inputs (encoder
    /// windows, prompts) go through ``PanelProduct``.
    private func multiplyInFloat(_ input: UnsafePointer<Float>, rows: Int, bias: [Float],
                                 into output: UnsafeMutablePointer<Float>, path: KernelPath) {
        let blocks = Int(sk_padded_out(Int32(outCount))) / 16
        let parts = ComputeThreads.shares(of: blocks)
        packed.withUnsafeBufferPointer { p in
            scales.withUnsafeBufferPointer { ws in
                bias.withUnsafeBufferPointer { b in
                    let biasPointer = bias.isEmpty ? nil : b.baseAddress!
                    if rows <= Linear.rowsThroughGEMV {
                        ComputeThreads.split(into: parts) { part in
                            sk_gemv_w8(path.kernel, input, Int32(rows), Int32(inCount), p.baseAddress!, ws.baseAddress!,
                                       biasPointer, Int32(outCount), Int32(part * blocks / parts),
                                       Int32((part + 1) * blocks / parts), output, Int32(outCount))
                        }
                        return
                    }
                    PanelProduct.multiply(input, rows: rows, inCount: inCount, outCount: outCount, bias: biasPointer,
                                          alignment: 16, into: output) { first, count, panel in
                        sk_unpack_blocks(p.baseAddress!, ws.baseAddress!, Int32(inCount), Int32(outCount),
                                         Int32(first / 16), Int32((first + count + 15) / 16), panel)
                    }
                }
            }
        }
    }

    /// Bytes this matrix holds (weights, scales, sums).
    var byteCount: Int { packed.count + 4 * scales.count + 4 * sums.count }
}
