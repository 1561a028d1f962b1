@testable import SpeechEngine
import Testing

/// The int8 kernels against sgemm (`Linear` with float weights) on the
/// engine's shapes. Tolerance: quantizing `x` and `w` to steps `sx`, `sw`
/// moves each product `x·w` by at most `|x|·sw/2 + sx/2·|w| + sx·sw/4`, so
/// every output must lie within the sum of that over its inputs (plus float
/// rounding, 1e-5 of `Σ|x||w|`) of the float result; and since every path
/// sums the same int8 products exactly in int32 and shares one epilogue, the
/// paths must agree bit for bit.
@Suite struct QuantizedMatrixTests {
    /// Paths this CPU runs (the scalar one always; AVX2 and VNNI where present).
    static let paths = KernelPath.allCases.filter(\.isSupported)

    struct Case: Sendable, CustomTestStringConvertible {
        var rows: Int, inCount: Int, outCount: Int
        var testDescription: String { "\(rows)x\(inCount)->\(outCount)" }
    }

    /// Encoder layers (their widths; 300 of a window's 1500 rows: three
    /// 96-row chunks and a tail, which is all the row blocking has), decoder
    /// steps (1 and 5 rows), the vocabulary projection, and sizes that leave
    /// tails everywhere: inputs not a multiple of 4, outputs not of 16, rows
    /// not of a tile or a chunk.
    static let cases: [Case] = [
        Case(rows: 300, inCount: 512, outCount: 2048), Case(rows: 300, inCount: 2048, outCount: 512),
        Case(rows: 1, inCount: 512, outCount: 2048), Case(rows: 5, inCount: 512, outCount: 2048),
        Case(rows: 1, inCount: 2048, outCount: 512), Case(rows: 5, inCount: 2048, outCount: 512),
        Case(rows: 1, inCount: 512, outCount: 51_865), Case(rows: 5, inCount: 512, outCount: 51_865),
        Case(rows: 97, inCount: 37, outCount: 19), Case(rows: 3, inCount: 5, outCount: 1),
        Case(rows: 9, inCount: 101, outCount: 33), Case(rows: 7, inCount: 1, outCount: 17),
    ]

    /// Uniform values in `-scale...scale`, filled through a raw buffer: the
    /// vocabulary-sized matrices have 26 M of them and this suite runs in debug.
    static func random(_ count: Int, seed: UInt64, scale: Float = 1) -> [Float] {
        var generator = SeededGenerator(seed: seed)
        return [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            for i in 0..<count {
                buffer[i] = (Float(generator.next() >> 40) / Float(1 << 24) * 2 - 1) * scale
            }
            initialized = count
        }
    }

    /// A case's operands: activations with an outlier column, as real hidden
    /// states have, weights of a layer's magnitude, and a bias.
    static func data(_ shape: Case) -> (input: [Float], weight: [Float], bias: [Float]) {
        var input = random(shape.rows * shape.inCount, seed: 11)
        for r in 0..<shape.rows { input[r * shape.inCount + (r % shape.inCount)] *= 6 }
        return (input, random(shape.outCount * shape.inCount, seed: 12, scale: 0.2), random(shape.outCount, seed: 13))
    }

    /// Per row of a `[count, width]` matrix: the largest magnitude and the sum of magnitudes.
    static func rowMagnitudes(_ m: [Float], count: Int, width: Int) -> (maximum: [Float], sum: [Float]) {
        var maximum = [Float](repeating: 0, count: count), sum = maximum
        m.withUnsafeBufferPointer { v in
            for r in 0..<count {
                var largest: Float = 0, total: Float = 0
                for i in (r * width)..<((r + 1) * width) {
                    let a = abs(v[i])
                    largest = max(largest, a)
                    total += a
                }
                maximum[r] = largest
                sum[r] = total
            }
        }
        return (maximum, sum)
    }

    /// The largest error quantization allows for each output (see the suite);
    /// `levels` 2: activations with their residual (`integerWithResidual`),
    /// whose step is at most `max|x| / 127 / 254`.
    static func bound(_ x: [Float], rows: Int, _ w: [Float], outCount: Int, inCount: Int, levels: Int = 1) -> [Float] {
        let (xMax, sumX) = rowMagnitudes(x, count: rows, width: inCount)
        let (wMax, sumW) = rowMagnitudes(w, count: outCount, width: inCount)
        let magnitude = Linear(weight: w.map(abs), bias: [], inCount: inCount, outCount: outCount)(x.map(abs), rows: rows)
        var bound = [Float](repeating: 0, count: rows * outCount)
        for r in 0..<rows {
            let xScale = levels == 1 ? xMax[r] / 127 : xMax[r] / 127 / 254
            for o in 0..<outCount {
                let wScale = wMax[o] / 127
                let quantization = sumX[r] * wScale / 2 + xScale * sumW[o] / 2 + Float(inCount) * xScale * wScale / 4
                bound[r * outCount + o] = quantization + 1e-5 * magnitude[r * outCount + o] + 1e-6
            }
        }
        return bound
    }

    @Test(arguments: cases)
    func everyPathMatchesSgemmWithinTheQuantizationBound(_ shape: Case) {
        let (rows, inCount, outCount) = (shape.rows, shape.inCount, shape.outCount)
        let (input, weight, bias) = Self.data(shape)
        let reference = Linear(weight: weight, bias: bias, inCount: inCount, outCount: outCount)(input, rows: rows)
        let bound = Self.bound(input, rows: rows, weight, outCount: outCount, inCount: inCount)
        let matrix = QuantizedMatrix(weight: weight, outCount: outCount, inCount: inCount)
        var results: [KernelPath: [Float]] = [:]
        for path in Self.paths {
            for threads in [1, 2] {
                let output = ComputeThreads.with(threads) { Self.multiply(matrix, input, rows: rows, bias: bias, path: path) }
                var outside = 0
                var squaredError: Double = 0, squaredReference: Double = 0
                for i in output.indices {
                    let error = abs(output[i] - reference[i])
                    if !(error <= bound[i]) { outside += 1 }
                    squaredError += Double(error * error)
                    squaredReference += Double((reference[i] - bias[i % outCount]) * (reference[i] - bias[i % outCount]))
                }
                #expect(outside == 0, "\(path) on \(threads) threads: \(outside) outputs outside the bound")
                // Typical error: about 1% of the product's RMS on these data (int8 has 2 digits).
                #expect((squaredError / max(squaredReference, 1e-30)).squareRoot() < 0.02, "\(path)")
                if let first = results[path] { #expect(first == output, "\(path): thread counts disagree") }
                results[path] = output
            }
        }
        if let scalar = results[.scalar] {
            for (path, output) in results { #expect(output == scalar, "\(path) differs from the scalar path") }
        }
        #expect(Self.paths.contains(.scalar))
    }

    @Test func zeroRowsAndZeroWeightsGiveTheBiasAndNoNaN() {
        let (rows, inCount, outCount) = (3, 24, 20)
        var input = Self.random(rows * inCount, seed: 21)
        for i in 0..<inCount { input[inCount + i] = 0 } // row 1 all zero
        var weight = Self.random(outCount * inCount, seed: 22)
        for i in 0..<inCount { weight[5 * inCount + i] = 0 } // output 5 all zero
        let bias = Self.random(outCount, seed: 23)
        let matrix = QuantizedMatrix(weight: weight, outCount: outCount, inCount: inCount)
        for path in Self.paths {
            let output = Self.multiply(matrix, input, rows: rows, bias: bias, path: path)
            #expect(output.allSatisfy { $0.isFinite })
            #expect((0..<outCount).allSatisfy { output[outCount + $0] == bias[$0] }, "\(path): zero row")
            #expect((0..<rows).allSatisfy { output[$0 * outCount + 5] == bias[5] }, "\(path): zero weights")
        }
    }

    @Test func rowsDequantizeWithinHalfAStep() {
        let (outCount, inCount) = (37, 53)
        let weight = Self.random(outCount * inCount, seed: 31)
        let matrix = QuantizedMatrix(weight: weight, outCount: outCount, inCount: inCount)
        var row = [Float](repeating: 0, count: inCount)
        for o in 0..<outCount {
            row.withUnsafeMutableBufferPointer { matrix.copyRow(o, into: $0.baseAddress!) }
            let step = weight[(o * inCount)..<((o + 1) * inCount)].map(abs).max()! / 127
            for i in 0..<inCount { #expect(abs(row[i] - weight[o * inCount + i]) <= step / 2 * 1.0001) }
        }
        // Packed weights take a quarter of the float bytes (plus per-row scale and sum).
        #expect(matrix.byteCount == 48 * 56 + 8 * outCount)
    }

    @Test func int8LinearLayersAndTheBiasFreeProjectionMatchTheirFloatForm() {
        let (rows, inCount, outCount) = (4, 64, 100)
        let input = Self.random(rows * inCount, seed: 41)
        let weight = Self.random(outCount * inCount, seed: 42)
        let bound = Self.bound(input, rows: rows, weight, outCount: outCount, inCount: inCount)
        for bias in [Self.random(outCount, seed: 43), []] {
            let float = Linear(weight: weight, bias: bias, inCount: inCount, outCount: outCount)
            let int8 = Linear(weight: weight, bias: bias, inCount: inCount, outCount: outCount, computeType: .int8)
            let expected = float(input, rows: rows), actual = int8(input, rows: rows)
            #expect(actual.indices.allSatisfy { abs(actual[$0] - expected[$0]) <= bound[$0] })
            var row = [Float](repeating: 0, count: inCount)
            row.withUnsafeMutableBufferPointer { float.copyWeightRow(7, into: $0.baseAddress!) }
            #expect(row == Array(weight[(7 * inCount)..<(8 * inCount)]))
        }
    }

    static func multiply(_ matrix: QuantizedMatrix, _ input: [Float], rows: Int, bias: [Float],
                         path: KernelPath) -> [Float] {
        product(input, outCount: matrix.outCount, rows: rows) {
            matrix.multiply($0, rows: rows, bias: bias, into: $1, path: path)
        }
    }
}

extension ComputeThreads {
    /// Runs `body` with `count` threads, then restores the previous count.
    static func with<T>(_ count: Int, _ body: () -> T) -> T {
        let previous = current
        use(count)
        defer { use(previous) }
        return body()
    }
}
