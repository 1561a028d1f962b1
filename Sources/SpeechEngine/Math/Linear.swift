import CBLAS
import Foundation

/// A dense layer `y = x · Wᵀ + b`, weights as stored in the checkpoint.
/// - Shape: `weight` is `[outCount, inCount]` row-major, `bias` is `[outCount]`.
struct Linear: Sendable {
    let weight: [Float]
    let bias: [Float]
    let inCount: Int
    let outCount: Int

    init(weight: [Float], bias: [Float], inCount: Int, outCount: Int) {
        precondition(weight.count == inCount * outCount && bias.count == outCount, "Linear shape mismatch")
        self.weight = weight
        self.bias = bias
        self.inCount = inCount
        self.outCount = outCount
    }

    /// - Shape: `input` is `[rows, inCount]`; returns `[rows, outCount]`.
    func callAsFunction(_ input: [Float], rows: Int) -> [Float] {
        precondition(input.count == rows * inCount, "Linear input shape mismatch")
        var output = [Float](repeating: 0, count: rows * outCount)
        input.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { y in
                apply(x.baseAddress!, rows: rows, into: y.baseAddress!)
            }
        }
        return output
    }

    /// Writes `[rows, outCount]` into `output`.
    func apply(_ input: UnsafePointer<Float>, rows: Int, into output: UnsafeMutablePointer<Float>) {
        bias.withUnsafeBufferPointer { b in
            for row in 0..<rows { (output + row * outCount).update(from: b.baseAddress!, count: outCount) }
        }
        weight.withUnsafeBufferPointer { w in
            if rows == 1 {
                // One decoder step: sgemv is ~2.5x faster than sgemm for M = 1 (DESIGN.md).
                cblas_sgemv(CblasRowMajor, CblasNoTrans, Int32(outCount), Int32(inCount), 1,
                            w.baseAddress, Int32(inCount), input, 1, 1, output, 1)
            } else {
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(outCount), Int32(inCount),
                            1, input, Int32(inCount), w.baseAddress, Int32(inCount), 1, output, Int32(outCount))
            }
        }
    }
}

/// Layer normalisation over the last dimension, eps 1e-5 (Whisper's).
struct LayerNorm: Sendable {
    let gamma: [Float]
    let beta: [Float]
    static let epsilon: Float = 1e-5

    /// - Shape: `input` is `[rows, gamma.count]`; returns the same shape.
    func callAsFunction(_ input: [Float], rows: Int) -> [Float] {
        let width = gamma.count
        precondition(input.count == rows * width, "LayerNorm shape mismatch")
        var output = [Float](repeating: 0, count: input.count)
        input.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { y in
                gamma.withUnsafeBufferPointer { g in
                    beta.withUnsafeBufferPointer { b in
                        for row in 0..<rows {
                            let xr = x.baseAddress! + row * width
                            let yr = y.baseAddress! + row * width
                            var mean: Float = 0
                            for i in 0..<width { mean += xr[i] }
                            mean /= Float(width)
                            var variance: Float = 0
                            for i in 0..<width { let d = xr[i] - mean; variance += d * d }
                            variance /= Float(width)
                            let inv = 1 / (variance + Self.epsilon).squareRoot()
                            for i in 0..<width { yr[i] = (xr[i] - mean) * inv * g[i] + b[i] }
                        }
                    }
                }
            }
        }
        return output
    }
}

enum Activation {
    /// GELU in its erf form, as Whisper's PyTorch reference uses.
    static func gelu(_ values: inout [Float]) {
        values.withUnsafeMutableBufferPointer { VectorMath.gelu($0) }
    }

    /// Softmax of `count` values in place, numerically stable.
    static func softmax(_ row: UnsafeMutablePointer<Float>, count: Int) {
        VectorMath.softmax(row, count: count)
    }
}

/// Adds `other` into `values` element-wise (residual connections).
func addInPlace(_ values: inout [Float], _ other: [Float]) {
    precondition(values.count == other.count, "residual shape mismatch")
    values.withUnsafeMutableBufferPointer { v in
        other.withUnsafeBufferPointer { o in
            for i in v.indices { v[i] += o[i] }
        }
    }
}
