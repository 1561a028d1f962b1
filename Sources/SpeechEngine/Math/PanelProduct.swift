import CBLAS
import Foundation

/// `output = input · Wᵀ (+ bias)` for weights kept in a compact form (half,
/// int8) over many input rows (encoder windows, prompts): a panel of output
/// rows at a time is widened to float and handed to sgemm, so the products
/// run at sgemm's speed and a panel, never the float matrix, is all that is
/// held as float. Threads split the output rows in whole `alignment` units
/// (the int8 layout's 16-row blocks), each with a panel of its own.
enum PanelProduct {
    /// Float per panel: about 1 MB, wide enough for sgemm to run at speed
    /// and small beside the weights.
    static let panelFloats = 1 << 18

    /// Output rows per panel for `inCount` inputs: a multiple of `alignment`.
    static func panelRows(inCount: Int, alignment: Int) -> Int {
        max(1, panelFloats / (alignment * inCount)) * alignment
    }

    /// - Parameters:
    ///   - direct: multiplies output rows `first ..< first + count` straight
    ///     from the compact weights, adding into `output` (which holds the
    ///     bias), and says whether it could; where it could not, those rows
    ///     take the panel path. Called from several threads at once, on
    ///     disjoint rows.
    ///   - widen: writes output rows `first ..< first + count` of the
    ///     weights as float, `[count, inCount]`, into the panel; called from
    ///     several threads at once, on disjoint rows.
    /// - Shape: `input` is `[rows, inCount]`, `output` `[rows, outCount]`,
    ///   `bias` nil or `[outCount]`.
    static func multiply(_ input: UnsafePointer<Float>, rows: Int, inCount: Int, outCount: Int,
                         bias: UnsafePointer<Float>?, alignment: Int, into output: UnsafeMutablePointer<Float>,
                         direct: ((_ first: Int, _ count: Int) -> Bool)? = nil,
                         widen: (_ first: Int, _ count: Int, _ panel: UnsafeMutablePointer<Float>) -> Void) {
        Linear.fill(output, rows: rows, outCount: outCount, bias: bias)
        let panelRows = panelRows(inCount: inCount, alignment: alignment)
        let units = (outCount + alignment - 1) / alignment
        // Every thread takes a share even when the outputs fill less than a
        // panel per thread (the encoder's 512×512 attention output and its
        // first convolution ran on one core while the other waited).
        let parts = ComputeThreads.shares(of: units)
        ComputeThreads.split(into: parts) { part in
            let end = min((part + 1) * units / parts * alignment, outCount)
            var panel: UnsafeMutablePointer<Float>?
            defer { panel?.deallocate() }
            var first = part * units / parts * alignment
            while first < end {
                let count = min(panelRows, end - first)
                if direct?(first, count) == true {
                    first += count
                    continue
                }
                let buffer = panel ?? UnsafeMutablePointer<Float>.allocate(capacity: panelRows * inCount)
                panel = buffer
                widen(first, count, buffer)
                BLAS.sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(count), Int32(inCount),
                           1, input, Int32(inCount), buffer, Int32(inCount), 1, output + first, Int32(outCount))
                first += count
            }
        }
    }
}
