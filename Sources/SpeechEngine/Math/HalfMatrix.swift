import CBLAS
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
    /// longer inputs (encoder windows, prompts) widen a panel of rows at a
    /// time and hand it to sgemm. Threads split the outputs, so every weight
    /// is read from memory once per call.
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
                    let parts = min(ComputeThreads.current, groups)
                    ComputeThreads.split(into: parts) { part in
                        let first = part * groups / parts * 4, last = min((part + 1) * groups / parts * 4, outCount)
                        sk_gemv_f16(vectorized ? 1 : 0, w.baseAddress!, input, Int32(rows), Int32(inCount),
                                    biasPointer, Int32(first), Int32(last), output, Int32(outCount))
                    }
                    return
                }
                if let biasPointer {
                    for row in 0..<rows { (output + row * outCount).update(from: biasPointer, count: outCount) }
                } else {
                    output.update(repeating: 0, count: rows * outCount)
                }
                let panelRows = Self.panelRows(inCount: inCount)
                let parts = min(ComputeThreads.current, max(1, outCount / panelRows))
                ComputeThreads.split(into: parts) { part in
                    let end = (part + 1) * outCount / parts
                    let panel = UnsafeMutablePointer<Float>.allocate(capacity: panelRows * inCount)
                    defer { panel.deallocate() }
                    var first = part * outCount / parts
                    while first < end {
                        let width = min(panelRows, end - first)
                        cf16_to_f32(w.baseAddress! + first * inCount, panel, width * inCount)
                        BLAS.sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(width), Int32(inCount),
                                   1, input, Int32(inCount), panel, Int32(inCount), 1, output + first, Int32(outCount))
                        first += width
                    }
                }
            }
        }
    }

    /// Output rows per float panel: about 1 MB of float, wide enough for
    /// sgemm to run at speed and small beside the weights.
    static func panelRows(inCount: Int) -> Int { max(16, (1 << 18) / inCount) }

    /// Bytes this matrix holds.
    var byteCount: Int { 2 * bits.count }
}
