import CFloat16
import CSpeechKernels
import Foundation

/// A weight matrix `[outCount, inCount]` kept in half precision, row-major,
/// as a float16 checkpoint stores it, and multiplied in float32. Whisper's
/// weights are float16 on disk, so this holds exactly the values the float
/// form holds, in half its memory; only the order of the sums differs.
struct HalfMatrix: Sendable {
    let inCount: Int
    let outCount: Int
    /// IEEE binary16 bit patterns, `[outCount, inCount]`.
    let bits: [UInt16]

    init(bits: [UInt16], outCount: Int, inCount: Int) {
        precondition(outCount > 0 && inCount > 0 && bits.count == outCount * inCount
                     && outCount <= Int(Int32.max) && inCount <= Int(Int32.max), "HalfMatrix shape")
        self.bits = bits
        self.outCount = outCount
        self.inCount = inCount
    }

    /// Row `row` as float into `output[inCount]` (embedding lookups).
    func copyRow(_ row: Int, into output: UnsafeMutablePointer<Float>) {
        precondition(row >= 0 && row < outCount, "HalfMatrix row out of range")
        bits.withUnsafeBufferPointer { cf16_to_f32($0.baseAddress! + row * inCount, output, inCount) }
    }

    /// `output = input · Wᵀ (+ bias)` in float32. Up to
    /// `Linear.rowsThroughGEMV` rows (decoder steps) the few-row kernel widens
    /// each weight once per call and dots every row with it from cache;
    /// longer inputs (encoder windows, prompts, beam-5 batches) go through
    /// ``PanelProduct``, whose panels the AVX-512 tiles pack straight from
    /// the half weights where they are the engine's sgemm.
    /// Threads split the outputs, so every weight is read from memory once per call.
    /// - Parameter vectorized: false runs the portable few-row kernel and
    ///   float panels (the forms the fast ones are tested against).
    /// - Shape: `input` is `[rows, inCount]`, `output` `[rows, outCount]`;
    ///   `bias` is empty or `[outCount]`.
    func multiply(_ input: UnsafePointer<Float>, rows: Int, bias: [Float], into output: UnsafeMutablePointer<Float>,
                  vectorized: Bool = true) {
        precondition(bias.isEmpty || bias.count == outCount, "HalfMatrix bias shape")
        guard rows > 0 else { return }
        bits.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in
                let biasPointer = bias.isEmpty ? nil : b.baseAddress!
                if rows <= min(Linear.rowsThroughGEMV, Int(SK_HALF_GEMV_MAX_ROWS)) {
                    // Parts in whole groups of 4 outputs, the kernel's unit.
                    let groups = (outCount + 3) / 4
                    let parts = ComputeThreads.shares(of: groups)
                    ComputeThreads.split(into: parts) { part in
                        let first = part * groups / parts * 4, last = min((part + 1) * groups / parts * 4, outCount)
                        sk_gemv_f16(vectorized ? 3 : 0, w.baseAddress!, input, Int32(rows), Int32(inCount),
                                    biasPointer, Int32(first), Int32(last), output, Int32(outCount))
                    }
                    return
                }
                // Where sgemm is the engine's AVX-512 tiles, they widen the
                // half weights as they pack them (the same bits, no float panel).
                let direct: ((Int, Int) -> Bool)? = vectorized && BLAS.packsHalfWeights ? { first, count in
                    sk_sgemm_half(Int32(rows), Int32(count), Int32(inCount), 1, input, Int32(inCount),
                                  w.baseAddress! + first * inCount, Int32(inCount), 1, output + first,
                                  Int32(outCount)) == 0
                } : nil
                PanelProduct.multiply(input, rows: rows, inCount: inCount, outCount: outCount, bias: biasPointer,
                                      alignment: 1, into: output, direct: direct) { first, count, panel in
                    cf16_to_f32(w.baseAddress! + first * inCount, panel, count * inCount)
                }
            }
        }
    }

    /// Outputs `outputs` only of `input · Wᵀ` (no bias) into `output`
    /// (`[rows, outCount]`, the other columns untouched), through the
    /// few-row kernel a group of up to its row limit at a time: the bits
    /// `multiply` gives those outputs for that many rows.
    func multiply(_ input: UnsafePointer<Float>, rows: Int, outputs: Range<Int>,
                  into output: UnsafeMutablePointer<Float>) {
        precondition(outputs.lowerBound >= 0 && outputs.upperBound <= outCount, "HalfMatrix outputs out of range")
        guard rows > 0, !outputs.isEmpty else { return }
        let groupRows = Int(SK_HALF_GEMV_MAX_ROWS)
        let groups = (outputs.count + 3) / 4
        let parts = ComputeThreads.shares(of: groups)
        bits.withUnsafeBufferPointer { w in
            ComputeThreads.split(into: parts) { part in
                let first = outputs.lowerBound + part * groups / parts * 4
                let last = min(outputs.lowerBound + (part + 1) * groups / parts * 4, outputs.upperBound)
                var row = 0
                while row < rows {
                    let count = min(groupRows, rows - row)
                    sk_gemv_f16(3, w.baseAddress!, input + row * inCount, Int32(count), Int32(inCount), nil,
                                Int32(first), Int32(last), output + row * outCount, Int32(outCount))
                    row += count
                }
            }
        }
    }

    /// Bytes this matrix holds.
    var byteCount: Int { 2 * bits.count }
}
