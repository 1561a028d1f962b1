import CBLAS
import Foundation

/// A dense layer `y = x · Wᵀ + b`, weights as float (sgemm), half precision
/// or int8, as the model's `ComputeType` chose at load.
/// - Shape: weights are `[outCount, inCount]` row-major, `bias` is `[outCount]`
///   or empty (no bias: the logits projection).
struct Linear: Sendable {
    /// The weights in the form the layer computes with.
    enum Weights: Sendable {
        case float([Float])
        case half(HalfMatrix)
        case int8(QuantizedMatrix)
    }

    let weights: Weights
    let bias: [Float]
    let inCount: Int
    let outCount: Int

    init(weights: Weights, bias: [Float], inCount: Int, outCount: Int) {
        switch weights {
        case .float(let weight): precondition(weight.count == inCount * outCount, "Linear shape mismatch")
        case .int8(let matrix): precondition(matrix.inCount == inCount && matrix.outCount == outCount, "Linear shape mismatch")
        case .half(let matrix): precondition(matrix.inCount == inCount && matrix.outCount == outCount, "Linear shape mismatch")
        }
        precondition(bias.isEmpty || bias.count == outCount, "Linear bias shape mismatch")
        self.weights = weights
        self.bias = bias
        self.inCount = inCount
        self.outCount = outCount
    }

    /// A float layer (convolutions, tests).
    init(weight: [Float], bias: [Float], inCount: Int, outCount: Int) {
        self.init(weights: .float(weight), bias: bias, inCount: inCount, outCount: outCount)
    }

    /// A layer in `computeType`'s weight form (tests: from float weights, so
    /// `float16Weights` rounds them to half precision here).
    init(weight: [Float], bias: [Float], inCount: Int, outCount: Int, computeType: ComputeType) {
        switch computeType.weightForm {
        case nil:
            self.init(weight: weight, bias: bias, inCount: inCount, outCount: outCount)
        case .half:
            self.init(weights: .half(HalfMatrix(bits: weight.map { Float16($0).bitPattern }, outCount: outCount,
                                                inCount: inCount)),
                      bias: bias, inCount: inCount, outCount: outCount)
        case .int8(let arithmetic):
            self.init(weights: .int8(QuantizedMatrix(weight: weight, outCount: outCount, inCount: inCount,
                                                     arithmetic: arithmetic)),
                      bias: bias, inCount: inCount, outCount: outCount)
        }
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
        switch weights {
        case .int8(let matrix):
            matrix.multiply(input, rows: rows, bias: bias, into: output)
        case .half(let matrix):
            matrix.multiply(input, rows: rows, bias: bias, into: output)
        case .float(let weight):
            bias.withUnsafeBufferPointer { b in
                Self.fill(output, rows: rows, outCount: outCount, bias: bias.isEmpty ? nil : b.baseAddress!)
            }
            weight.withUnsafeBufferPointer { w in
                Self.multiply(input, rows: rows, weight: w.baseAddress!, outCount: outCount, inCount: inCount,
                              accumulatingInto: output)
            }
        }
    }

    /// Row `row` of the weights as float into `output[inCount]`: the token
    /// embedding lookup, on the matrix the logits also go through.
    func copyWeightRow(_ row: Int, into output: UnsafeMutablePointer<Float>) {
        switch weights {
        case .int8(let matrix): matrix.copyRow(row, into: output)
        case .half(let matrix): matrix.copyRow(row, into: output)
        case .float(let weight):
            weight.withUnsafeBufferPointer { w in output.update(from: w.baseAddress! + row * inCount, count: inCount) }
        }
    }

    /// Bytes the weights and bias hold.
    var byteCount: Int {
        switch weights {
        case .int8(let matrix): matrix.byteCount + 4 * bias.count
        case .half(let matrix): matrix.byteCount + 4 * bias.count
        case .float(let weight): 4 * (weight.count + bias.count)
        }
    }

    /// Every row of `output` (`[rows, outCount]`) set to `bias`, or to zero
    /// without one: where a product accumulating into `output` starts.
    static func fill(_ output: UnsafeMutablePointer<Float>, rows: Int, outCount: Int, bias: UnsafePointer<Float>?) {
        guard let bias else { return output.update(repeating: 0, count: rows * outCount) }
        for row in 0..<rows { (output + row * outCount).update(from: bias, count: outCount) }
    }

    /// `output += input · weightᵀ` for `[rows, inCount]` input and
    /// `[outCount, inCount]` weights, split over the engine's threads.
    static func multiply(_ input: UnsafePointer<Float>, rows: Int, weight: UnsafePointer<Float>,
                         outCount: Int, inCount: Int, accumulatingInto output: UnsafeMutablePointer<Float>) {
        if rows > rowsThroughGEMV {
            // Encoder windows and decoder prompts: each part is one
            // single-threaded sgemm over a share of the rows.
            let parts = ComputeThreads.shares(of: rows / rowsThroughGEMV)
            ComputeThreads.split(into: parts) { part in
                let first = part * rows / parts
                let count = (part + 1) * rows / parts - first
                BLAS.sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(count), Int32(outCount), Int32(inCount),
                            1, input + first * inCount, Int32(inCount), weight, Int32(inCount), 1,
                            output + first * outCount, Int32(outCount))
            }
            return
        }
        // Decoder steps (one row per beam). A few-row sgemm packs the whole
        // weight matrix on every call; sgemv reads it as it is. Each part is
        // a share of the outputs, walked in blocks that fit in L2,
        // one sgemv per row over each block, so weights come from memory once
        // per step however many beams there are.
        let parts = ComputeThreads.shares(of: outCount / 64)
        let blockRows = max(64, (1 << 18) / inCount)
        ComputeThreads.split(into: parts) { part in
            var block = part * outCount / parts
            let end = (part + 1) * outCount / parts
            while block < end {
                let count = min(blockRows, end - block)
                for row in 0..<rows {
                    BLAS.sgemv(CblasRowMajor, CblasNoTrans, Int32(count), Int32(inCount), 1,
                                weight + block * inCount, Int32(inCount), input + row * inCount, 1, 1,
                                output + row * outCount + block, 1)
                }
                block += count
            }
        }
    }

    /// Up to this many rows, sgemv per row beats one sgemm: for the decoder's
    /// 512×2048 weights, five sgemv calls take 0.12 ms and a five-row sgemm
    /// 0.29 ms; for the 51,865-row logits, 3.9 ms against 7.9 ms
    /// (OpenBLAS 0.3.21, 2 threads; Benchmarks/RESULTS.md).
    static let rowsThroughGEMV = 8
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
