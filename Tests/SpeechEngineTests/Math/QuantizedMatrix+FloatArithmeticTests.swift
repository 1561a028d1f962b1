@testable import SpeechEngine
import Testing

/// `QuantizedMatrix` with float arithmetic (`ComputeType.int8Weights`): int8
/// weights, float activations. Two references: sgemm over the dequantized
/// weights, which it must equal up to float rounding (1e-5 of `Σ|x||w|`: the
/// sums run in another order), and sgemm over the original float weights,
/// from which only the weights' rounding may move it (half a step per
/// weight: `Σ|x|·sw/2`), far less than int8 activations allow.
@Suite struct QuantizedMatrixFloatArithmeticTests {
    typealias Case = QuantizedMatrixTests.Case

    /// The integer suite's shapes, plus row counts either side of the
    /// few-row kernel's limit (8 and 9) and one past the panel width
    /// (`PanelProduct.panelRows` is 512 rows at 512 inputs: 2048 outputs take 4 panels).
    static let cases = QuantizedMatrixTests.cases + [
        Case(rows: 8, inCount: 512, outCount: 2048), Case(rows: 9, inCount: 512, outCount: 2048),
        Case(rows: 40, inCount: 384, outCount: 1157),
    ]

    /// The fused kernel's paths: the scalar reference and AVX2+FMA where the
    /// CPU has them (the VNNI path runs the AVX2 kernel for float arithmetic).
    static let paths = [KernelPath.scalar, .avx2].filter(\.isSupported)

    @Test(arguments: cases)
    func everyPathMatchesSgemmOverTheDequantizedWeights(_ shape: Case) {
        let (rows, inCount, outCount) = (shape.rows, shape.inCount, shape.outCount)
        let (input, weight, bias) = QuantizedMatrixTests.data(shape)
        let matrix = QuantizedMatrix(weight: weight, outCount: outCount, inCount: inCount, arithmetic: .float)

        var dequantized = [Float](repeating: 0, count: outCount * inCount)
        dequantized.withUnsafeMutableBufferPointer { d in
            for o in 0..<outCount { matrix.copyRow(o, into: d.baseAddress! + o * inCount) }
        }
        let exact = Linear(weight: dequantized, bias: bias, inCount: inCount, outCount: outCount)(input, rows: rows)
        let original = Linear(weight: weight, bias: bias, inCount: inCount, outCount: outCount)(input, rows: rows)
        let magnitude = Linear(weight: weight.map(abs), bias: [], inCount: inCount, outCount: outCount)(
            input.map(abs), rows: rows)
        let (weightMaximum, _) = QuantizedMatrixTests.rowMagnitudes(weight, count: outCount, width: inCount)
        let (_, inputSum) = QuantizedMatrixTests.rowMagnitudes(input, count: rows, width: inCount)

        for path in Self.paths {
            for threads in [1, 2] {
                let output = ComputeThreads.with(threads) {
                    QuantizedMatrixTests.multiply(matrix, input, rows: rows, bias: bias, path: path)
                }
                var offRounding = 0, offQuantization = 0
                for r in 0..<rows {
                    for o in 0..<outCount {
                        let i = r * outCount + o
                        let rounding = 1e-5 * magnitude[i] + 1e-6
                        if !(abs(output[i] - exact[i]) <= rounding) { offRounding += 1 }
                        let quantization = inputSum[r] * weightMaximum[o] / 127 / 2 * 1.0001 + rounding
                        if !(abs(output[i] - original[i]) <= quantization) { offQuantization += 1 }
                    }
                }
                #expect(offRounding == 0, "\(path), \(threads) threads: \(offRounding) outputs off sgemm on the dequantized weights")
                #expect(offQuantization == 0, "\(path), \(threads) threads: \(offQuantization) outputs outside the weights' rounding")
            }
        }
    }

    /// Inputs not a multiple of 4 end inside a packed group of 4: the kernel
    /// must not read past the row (there: NaN), as an activation buffer's
    /// neighbour may hold anything.
    @Test(arguments: [1, 5, 9])
    func nothingPastTheLastInputIsRead(rows: Int) {
        let (inCount, outCount) = (37, 20)
        let weight = QuantizedMatrixTests.random(outCount * inCount, seed: 51)
        let matrix = QuantizedMatrix(weight: weight, outCount: outCount, inCount: inCount, arithmetic: .float)
        let input = QuantizedMatrixTests.random(rows * inCount, seed: 52)
        let guarded = input + [Float](repeating: .nan, count: 8)
        for path in Self.paths {
            var output = [Float](repeating: .nan, count: rows * outCount)
            guarded.withUnsafeBufferPointer { x in
                output.withUnsafeMutableBufferPointer { y in
                    matrix.multiply(x.baseAddress!, rows: rows, bias: [], into: y.baseAddress!, path: path)
                }
            }
            #expect(output.allSatisfy { $0.isFinite }, "\(path)")
            #expect(output == QuantizedMatrixTests.multiply(matrix, input, rows: rows, bias: [], path: path), "\(path)")
        }
    }

    @Test func int8WeightLayersMatchTheirFloatFormWithinTheWeightsRounding() {
        let (rows, inCount, outCount) = (4, 64, 100)
        let input = QuantizedMatrixTests.random(rows * inCount, seed: 41)
        let weight = QuantizedMatrixTests.random(outCount * inCount, seed: 42)
        let (weightMaximum, _) = QuantizedMatrixTests.rowMagnitudes(weight, count: outCount, width: inCount)
        let (_, inputSum) = QuantizedMatrixTests.rowMagnitudes(input, count: rows, width: inCount)
        for bias in [QuantizedMatrixTests.random(outCount, seed: 43), []] {
            let float = Linear(weight: weight, bias: bias, inCount: inCount, outCount: outCount)
            let layer = Linear(weight: weight, bias: bias, inCount: inCount, outCount: outCount, computeType: .int8Weights)
            guard case .int8(let matrix) = layer.weights else {
                Issue.record("int8Weights kept float weights")
                return
            }
            #expect(matrix.arithmetic == .float)
            let expected = float(input, rows: rows), actual = layer(input, rows: rows)
            for r in 0..<rows {
                for o in 0..<outCount {
                    let bound = inputSum[r] * weightMaximum[o] / 127 / 2 * 1.0001 + 1e-5
                    #expect(abs(actual[r * outCount + o] - expected[r * outCount + o]) <= bound)
                }
            }
        }
    }
}
