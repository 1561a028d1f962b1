@testable import SpeechEngine
import Testing

/// The blocked int8 form (`QuantizedMatrix.Arithmetic.blocks`, `sk_gemm_q8`)
/// against sgemm on the engine's shapes. The bound is the per-row suite's
/// with each block's own steps: quantizing `x` and `w` to steps `sx_b`,
/// `sw_b` (max over the 32 inputs of block `b`, / 127) moves `x·w` by at most
/// `|x|·sw_b/2 + sx_b/2·|w| + sx_b·sw_b/4`. Every path sums each block's int8
/// products exactly and adds the blocks with the same fused multiply-adds in
/// the same order, so the paths must agree bit for bit.
@Suite struct QuantizedMatrixBlocksTests {
    typealias Case = QuantizedMatrixTests.Case

    /// The per-row suite's shapes (encoder and decoder layers, the
    /// vocabulary, ragged tails: inputs not a multiple of 32 leave a partial
    /// last block) and a beam-5 batch of 8 windows (40 rows: many row tiles).
    static let cases = QuantizedMatrixTests.cases + [Case(rows: 40, inCount: 512, outCount: 2048)]

    /// Per row of `[count, width]` values and block of 32: the largest magnitude.
    static func blockMaxima(_ m: [Float], count: Int, width: Int) -> [Float] {
        let blocks = (width + 31) / 32
        var maxima = [Float](repeating: 0, count: count * blocks)
        for r in 0..<count {
            for k in 0..<width { maxima[r * blocks + k / 32] = max(maxima[r * blocks + k / 32], abs(m[r * width + k])) }
        }
        return maxima
    }

    /// The largest error block quantization allows for each output.
    static func bound(_ x: [Float], rows: Int, _ w: [Float], outCount: Int, inCount: Int) -> [Float] {
        let blocks = (inCount + 31) / 32
        let xMax = blockMaxima(x, count: rows, width: inCount), wMax = blockMaxima(w, count: outCount, width: inCount)
        let magnitude = Linear(weight: w.map(abs), bias: [], inCount: inCount, outCount: outCount)(x.map(abs), rows: rows)
        var bound = [Float](repeating: 0, count: rows * outCount)
        x.withUnsafeBufferPointer { x in
            w.withUnsafeBufferPointer { w in
                for r in 0..<rows {
                    for o in 0..<outCount {
                        var total: Float = 0
                        for k in 0..<inCount {
                            let sx = xMax[r * blocks + k / 32] / 127, sw = wMax[o * blocks + k / 32] / 127
                            total += abs(x[r * inCount + k]) * sw / 2 + sx * abs(w[o * inCount + k]) / 2 + sx * sw / 4
                        }
                        bound[r * outCount + o] = total + 1e-5 * magnitude[r * outCount + o] + 1e-6
                    }
                }
            }
        }
        return bound
    }

    @Test(arguments: cases)
    func everyPathMatchesSgemmWithinTheBlocksBound(_ shape: Case) {
        let (rows, inCount, outCount) = (shape.rows, shape.inCount, shape.outCount)
        let (input, weight, bias) = QuantizedMatrixTests.data(shape)
        let reference = Linear(weight: weight, bias: bias, inCount: inCount, outCount: outCount)(input, rows: rows)
        // The exact bound costs rows·in·out scalar steps: checked where that is small in debug.
        let bound = rows * inCount * outCount <= 60_000_000
            ? Self.bound(input, rows: rows, weight, outCount: outCount, inCount: inCount) : nil
        let matrix = QuantizedMatrix(weight: weight, outCount: outCount, inCount: inCount, arithmetic: .blocks)
        var results: [KernelPath: [Float]] = [:]
        for path in QuantizedMatrixTests.paths {
            for threads in [1, 2] {
                let output = ComputeThreads.with(threads) {
                    QuantizedMatrixTests.multiply(matrix, input, rows: rows, bias: bias, path: path)
                }
                if let bound {
                    let outside = output.indices.filter { !(abs(output[$0] - reference[$0]) <= bound[$0]) }.count
                    #expect(outside == 0, "\(path) on \(threads) threads: \(outside) outputs outside the bound")
                }
                #expect(Self.relativeError(output, reference, bias: bias) < 0.01, "\(path)")
                if let first = results[path] { #expect(first == output, "\(path): thread counts disagree") }
                results[path] = output
            }
        }
        if let scalar = results[.scalar] {
            for (path, output) in results { #expect(output == scalar, "\(path) differs from the scalar path") }
        }
    }

    /// Why the form exists: with an outlier in every activation row (real
    /// hidden states have a few channels 10-50x the rest), per-row scales
    /// round the other inputs to a few levels; blocks keep them.
    @Test func anOutlierCostsOnlyItsBlock() {
        let (rows, inCount, outCount) = (5, 512, 256)
        var input = QuantizedMatrixTests.random(rows * inCount, seed: 51)
        for r in 0..<rows { input[r * inCount + 3 + 7 * r] = 40 }
        let weight = QuantizedMatrixTests.random(outCount * inCount, seed: 52, scale: 0.2)
        let reference = Linear(weight: weight, bias: [], inCount: inCount, outCount: outCount)(input, rows: rows)
        func error(_ arithmetic: QuantizedMatrix.Arithmetic) -> Double {
            let matrix = QuantizedMatrix(weight: weight, outCount: outCount, inCount: inCount, arithmetic: arithmetic)
            let output = QuantizedMatrixTests.multiply(matrix, input, rows: rows, bias: [], path: .best)
            return Self.relativeError(output, reference, bias: [])
        }
        let (perRow, blocks) = (error(.integer), error(.blocks))
        #expect(blocks < perRow / 3, "blocks \(blocks), per row \(perRow)")
    }

    @Test func zeroRowsAndZeroBlocksGiveTheBiasAndNoNaN() {
        let (rows, inCount, outCount) = (3, 80, 20)
        var input = QuantizedMatrixTests.random(rows * inCount, seed: 61)
        for i in 0..<inCount { input[inCount + i] = 0 } // row 1 all zero
        for i in 32..<64 { input[2 * inCount + i] = 0 } // one block of row 2 zero
        var weight = QuantizedMatrixTests.random(outCount * inCount, seed: 62)
        for i in 0..<inCount { weight[5 * inCount + i] = 0 } // output 5 all zero
        let bias = QuantizedMatrixTests.random(outCount, seed: 63)
        let matrix = QuantizedMatrix(weight: weight, outCount: outCount, inCount: inCount, arithmetic: .blocks)
        for path in QuantizedMatrixTests.paths {
            let output = QuantizedMatrixTests.multiply(matrix, input, rows: rows, bias: bias, path: path)
            #expect(output.allSatisfy { $0.isFinite })
            #expect((0..<outCount).allSatisfy { output[outCount + $0] == bias[$0] }, "\(path): zero row")
            #expect((0..<rows).allSatisfy { output[$0 * outCount + 5] == bias[5] }, "\(path): zero weights")
        }
    }

    @Test func rowsDequantizeWithinHalfABlockStep() {
        let (outCount, inCount) = (37, 70)
        var weight = QuantizedMatrixTests.random(outCount * inCount, seed: 71)
        weight[3 * inCount + 40] = 25 // an outlier rounds only its own block
        let matrix = QuantizedMatrix(weight: weight, outCount: outCount, inCount: inCount, arithmetic: .blocks)
        let maxima = Self.blockMaxima(weight, count: outCount, width: inCount)
        var row = [Float](repeating: 0, count: inCount)
        for o in 0..<outCount {
            row.withUnsafeMutableBufferPointer { matrix.copyRow(o, into: $0.baseAddress!) }
            for i in 0..<inCount {
                let step = maxima[o * 3 + i / 32] / 127
                #expect(abs(row[i] - weight[o * inCount + i]) <= step / 2 * 1.0001)
            }
        }
        // Inputs padded to 96 (3 blocks), outputs to 48; a scale and a sum per block.
        #expect(matrix.byteCount == 48 * 96 + 8 * 48 * 3)
    }

    static func relativeError(_ output: [Float], _ reference: [Float], bias: [Float]) -> Double {
        var squaredError: Double = 0, squaredReference: Double = 0
        for i in output.indices {
            let error = Double(output[i] - reference[i])
            let value = Double(reference[i] - (bias.isEmpty ? 0 : bias[i % bias.count]))
            squaredError += error * error
            squaredReference += value * value
        }
        return (squaredError / max(squaredReference, 1e-30)).squareRoot()
    }
}
