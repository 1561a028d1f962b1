@testable import SpeechEngine
import Testing

/// Int8 weights against activations quantized in two int8 levels (the row,
/// then its rounding's residual; `QuantizedMatrix.Arithmetic.integerWithResidual`,
/// the logits screen). Tolerance as `QuantizedMatrixTests`' with the
/// activation step of the second level: the residual is at most half the
/// first level's step, so its step is at most `max|x| / 127 / 254`. Every
/// path sums the same int8 products in int32 and shares the epilogue: the
/// paths agree bit for bit.
@Suite struct QuantizedMatrixResidualTests {
    typealias Case = QuantizedMatrixTests.Case

    /// The screen's shapes (a window's beams, eight windows' beams, over the
    /// vocabulary), a row count a tile (8 quantized rows, 4 output rows) does
    /// not divide, and the int8 suite's shapes with tails everywhere.
    static let cases = [
        Case(rows: 5, inCount: 512, outCount: 51_865), Case(rows: 40, inCount: 512, outCount: 4096),
        Case(rows: 7, inCount: 512, outCount: 2048),
    ] + QuantizedMatrixTests.cases.filter { $0.inCount * $0.outCount < 100_000 }

    @Test(arguments: cases)
    func everyPathMatchesSgemmWithinTheWeightsRounding(_ shape: Case) {
        let (rows, inCount, outCount) = (shape.rows, shape.inCount, shape.outCount)
        let (input, weight, bias) = QuantizedMatrixTests.data(shape)
        let reference = Linear(weight: weight, bias: bias, inCount: inCount, outCount: outCount)(input, rows: rows)
        let bound = QuantizedMatrixTests.bound(input, rows: rows, weight, outCount: outCount, inCount: inCount,
                                               levels: 2)
        let matrix = QuantizedMatrix(weight: weight, outCount: outCount, inCount: inCount,
                                     arithmetic: .integerWithResidual)
        var results: [KernelPath: [Float]] = [:]
        for path in QuantizedMatrixTests.paths {
            for threads in [1, 2] {
                let output = ComputeThreads.with(threads) {
                    QuantizedMatrixTests.multiply(matrix, input, rows: rows, bias: bias, path: path)
                }
                let outside = output.indices.filter { !(abs(output[$0] - reference[$0]) <= bound[$0]) }
                #expect(outside.isEmpty, "\(path) on \(threads) threads: \(outside.count) outputs outside the bound")
                if let first = results[path] { #expect(first == output, "\(path): thread counts disagree") }
                results[path] = output
            }
        }
        if let scalar = results[.scalar] {
            for (path, output) in results { #expect(output == scalar, "\(path) differs from the scalar path") }
        }
    }

    /// What the second level is for: with an outlier in a row of
    /// activations, one-level int8 moves all of the row's outputs the same
    /// way (the mean error over a row's outputs, which shifts a
    /// log-softmax's normaliser, is most of its error); with the residual
    /// that shared part is an order of magnitude smaller.
    @Test func theResidualRemovesTheErrorARowsOutputsShare() {
        let shape = Case(rows: 5, inCount: 512, outCount: 4096)
        let data = QuantizedMatrixTests.data(shape)
        var input = data.input
        let weight = data.weight
        for r in 0..<shape.rows { input[r * shape.inCount + 7] = 40 } // a layer norm's large gain
        let reference = Linear(weight: weight, bias: [], inCount: shape.inCount, outCount: shape.outCount)(
            input, rows: shape.rows)
        func sharedError(_ arithmetic: QuantizedMatrix.Arithmetic) -> Float {
            let matrix = QuantizedMatrix(weight: weight, outCount: shape.outCount, inCount: shape.inCount,
                                         arithmetic: arithmetic)
            let output = QuantizedMatrixTests.multiply(matrix, input, rows: shape.rows, bias: [], path: .best)
            return (0..<shape.rows).map { r in
                let range = (r * shape.outCount)..<((r + 1) * shape.outCount)
                return abs(range.reduce(Float(0)) { $0 + output[$1] - reference[$1] } / Float(shape.outCount))
            }.max()!
        }
        let oneLevel = sharedError(.integer), twoLevels = sharedError(.integerWithResidual)
        #expect(twoLevels < oneLevel / 10, "shared error \(twoLevels) with the residual, \(oneLevel) without")
    }
}
