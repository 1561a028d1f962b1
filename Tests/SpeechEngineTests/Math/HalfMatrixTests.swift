import CSpeechKernels
@testable import SpeechEngine
import Testing

/// Half-precision weights multiplied in float32 against sgemm over the same
/// values widened to float (what `float32` holds for a float16 checkpoint):
/// equal up to float rounding, 1e-5 of `Σ|x||w|` (the sums run in another
/// order), on the engine's shapes, with 1 and 2 threads and both kernel forms.
@Suite struct HalfMatrixTests {
    typealias Case = QuantizedMatrixTests.Case

    /// The int8 suites' shapes (encoder, decoder steps, vocabulary, tails),
    /// plus 8 and 9 rows either side of the few-row kernel, inputs past its
    /// 512-wide chunks with a tail, and outputs not a multiple of its 4.
    static let cases = QuantizedMatrixTests.cases + [
        Case(rows: 8, inCount: 512, outCount: 2048), Case(rows: 9, inCount: 512, outCount: 2048),
        Case(rows: 3, inCount: 1283, outCount: 7), Case(rows: 40, inCount: 384, outCount: 1157),
    ]

    /// Half values as a checkpoint holds them: random floats rounded to half.
    static func halves(_ count: Int, seed: UInt64, scale: Float) -> [UInt16] {
        QuantizedMatrixTests.random(count, seed: seed, scale: scale).map { Float16($0).bitPattern }
    }

    @Test(arguments: cases)
    func matchesSgemmOverTheWidenedWeights(_ shape: Case) {
        let (rows, inCount, outCount) = (shape.rows, shape.inCount, shape.outCount)
        let (input, weight, bias) = QuantizedMatrixTests.data(shape)
        let bits = weight.map { Float16($0).bitPattern }
        let widened = bits.map { Float(Float16(bitPattern: $0)) }
        let matrix = HalfMatrix(bits: bits, outCount: outCount, inCount: inCount)
        let expected = Linear(weight: widened, bias: bias, inCount: inCount, outCount: outCount)(input, rows: rows)
        let magnitude = Linear(weight: widened.map(abs), bias: [], inCount: inCount, outCount: outCount)(
            input.map(abs), rows: rows)
        for vectorized in [false, true] {
            for threads in [1, 2] {
                let output = ComputeThreads.with(threads) {
                    Self.multiply(matrix, input, rows: rows, bias: bias, vectorized: vectorized)
                }
                let off = output.indices.filter { !(abs(output[$0] - expected[$0]) <= 1e-5 * magnitude[$0] + 1e-6) }
                #expect(off.isEmpty, "vectorized \(vectorized), \(threads) threads: \(off.count) outputs off sgemm")
            }
        }
    }

    /// Weights widened in registers (AVX2 up to 2 rows, AVX-512 two weight
    /// rows to a register) add in the buffered form's order: the same bits
    /// for every row count.
    @Test(.enabled(if: sk_half_gemv_vectorized() != 0, "AVX2 on this CPU"), arguments: cases.filter { $0.rows <= 8 } + [
        Case(rows: 2, inCount: 1283, outCount: 9), Case(rows: 4, inCount: 515, outCount: 13),
        Case(rows: 6, inCount: 1030, outCount: 8),
    ])
    func widenedInRegistersGivesTheBufferedBits(_ shape: Case) {
        let (input, weight, bias) = QuantizedMatrixTests.data(shape)
        let bits = weight.map { Float16($0).bitPattern }
        func product(form: Int32) -> [UInt32] {
            var output = [Float](repeating: .nan, count: shape.rows * shape.outCount)
            bits.withUnsafeBufferPointer { w in
                input.withUnsafeBufferPointer { x in
                    bias.withUnsafeBufferPointer { b in
                        output.withUnsafeMutableBufferPointer { y in
                            sk_gemv_f16(form, w.baseAddress!, x.baseAddress!, Int32(shape.rows), Int32(shape.inCount),
                                        b.baseAddress, 0, Int32(shape.outCount), y.baseAddress!, Int32(shape.outCount))
                        }
                    }
                }
            }
            return output.map(\.bitPattern)
        }
        let buffered = product(form: 1)
        #expect(product(form: 2) == buffered, "\(shape): AVX2 in registers")
        #expect(product(form: 3) == buffered, "\(shape): the fastest form")
    }

    /// Past the few-row kernel, the AVX-512 tiles widen the weights as they
    /// pack them: the bits of the float panels the other forms widen into
    /// first (`vectorized: false` keeps those), with 1 and 2 threads.
    @Test(.enabled(if: BLAS.packsHalfWeights, "the engine's AVX-512 tiles are its sgemm"),
          arguments: [Case(rows: 40, inCount: 512, outCount: 1536), Case(rows: 40, inCount: 384, outCount: 1157),
                      Case(rows: 9, inCount: 1283, outCount: 7)])
    func widenedAsPackedGivesThePanelsBits(_ shape: Case) {
        let (input, weight, bias) = QuantizedMatrixTests.data(shape)
        let matrix = HalfMatrix(bits: weight.map { Float16($0).bitPattern }, outCount: shape.outCount,
                                inCount: shape.inCount)
        let panels = Self.multiply(matrix, input, rows: shape.rows, bias: bias, vectorized: false)
        for threads in [1, 2] {
            let packed = ComputeThreads.with(threads) {
                Self.multiply(matrix, input, rows: shape.rows, bias: bias, vectorized: true)
            }
            #expect(packed.map(\.bitPattern) == panels.map(\.bitPattern), "\(shape), \(threads) threads")
        }
    }

    @Test func rowsWidenExactlyAndTheLayerHoldsHalfTheBytes() {
        let (outCount, inCount) = (37, 53)
        let bits = Self.halves(outCount * inCount, seed: 31, scale: 1)
        let matrix = HalfMatrix(bits: bits, outCount: outCount, inCount: inCount)
        var row = [Float](repeating: .nan, count: inCount)
        for o in [0, 17, outCount - 1] {
            row.withUnsafeMutableBufferPointer { matrix.copyRow(o, into: $0.baseAddress!) }
            #expect(row == bits[(o * inCount)..<((o + 1) * inCount)].map { Float(Float16(bitPattern: $0)) })
        }
        let layer = Linear(weights: .half(matrix), bias: [Float](repeating: 0, count: outCount),
                           inCount: inCount, outCount: outCount)
        #expect(layer.byteCount == 2 * outCount * inCount + 4 * outCount)
    }

    /// The bias-free projection (logits) and a layer built for the compute
    /// type from float weights (rounded to half there).
    @Test func float16WeightLayersMatchTheirFloatForm() {
        let (rows, inCount, outCount) = (4, 64, 100)
        let input = QuantizedMatrixTests.random(rows * inCount, seed: 41)
        let weight = QuantizedMatrixTests.random(outCount * inCount, seed: 42).map { Float(Float16($0)) }
        for bias in [QuantizedMatrixTests.random(outCount, seed: 43), []] {
            let float = Linear(weight: weight, bias: bias, inCount: inCount, outCount: outCount)
            let layer = Linear(weight: weight, bias: bias, inCount: inCount, outCount: outCount,
                               computeType: .float16Weights)
            guard case .half = layer.weights else {
                Issue.record("float16Weights did not keep half weights")
                return
            }
            let expected = float(input, rows: rows), actual = layer(input, rows: rows)
            #expect(actual.indices.allSatisfy { abs(actual[$0] - expected[$0]) <= 1e-4 })
        }
    }

    /// Chosen weight rows of one activation row (`sk_gemv_f16_rows`, the
    /// logits' contenders) and a range of outputs (`multiply(outputs:)`, the
    /// timestamps) carry the bits the whole product gives them, in every
    /// form, across the kernel's 512-wide chunks and their tails.
    @Test(arguments: [Case(rows: 1, inCount: 512, outCount: 301), Case(rows: 5, inCount: 1283, outCount: 37),
                      Case(rows: 12, inCount: 5, outCount: 64)])
    func chosenRowsAndRangesGiveTheWholeProductsBits(_ shape: Case) {
        let (input, weight, _) = QuantizedMatrixTests.data(shape)
        let bits = weight.map { Float16($0).bitPattern }
        let matrix = HalfMatrix(bits: bits, outCount: shape.outCount, inCount: shape.inCount)
        let chosen: [Int32] = [0, 3, Int32(shape.outCount - 1), 17 % Int32(shape.outCount), 2]
        for form: Int32 in [0, 3] {
            for r in 0..<shape.rows {
                let row = Array(input[(r * shape.inCount)..<((r + 1) * shape.inCount)])
                var whole = [Float](repeating: .nan, count: shape.outCount)
                var picked = [Float](repeating: .nan, count: chosen.count)
                bits.withUnsafeBufferPointer { w in
                    sk_gemv_f16(form, w.baseAddress!, row, 1, Int32(shape.inCount), nil, 0, Int32(shape.outCount),
                                &whole, Int32(shape.outCount))
                    sk_gemv_f16_rows(form, w.baseAddress!, row, Int32(shape.inCount), chosen, Int32(chosen.count), &picked)
                }
                #expect(picked.map(\.bitPattern) == chosen.map { whole[Int($0)].bitPattern }, "form \(form), row \(r)")
            }
        }
        // A range of outputs for every row: each row's bits as it gets alone (up to 8 rows a group).
        let outputs = 2..<(shape.outCount - 1)
        var ranged = [Float](repeating: -1, count: shape.rows * shape.outCount)
        input.withUnsafeBufferPointer { x in
            ranged.withUnsafeMutableBufferPointer { y in
                ComputeThreads.with(2) { matrix.multiply(x.baseAddress!, rows: shape.rows, outputs: outputs, into: y.baseAddress!) }
            }
        }
        for r in 0..<shape.rows {
            let alone = Self.multiply(matrix, Array(input[(r * shape.inCount)..<((r + 1) * shape.inCount)]), rows: 1,
                                      bias: [], vectorized: true)
            let row = ranged[(r * shape.outCount)..<((r + 1) * shape.outCount)]
            #expect(outputs.allSatisfy { row[r * shape.outCount + $0].bitPattern == alone[$0].bitPattern }, "row \(r)")
            #expect(row.first == -1 && row.last == -1, "row \(r): outputs outside the range written")
        }
    }

    static func multiply(_ matrix: HalfMatrix, _ input: [Float], rows: Int, bias: [Float],
                         vectorized: Bool) -> [Float] {
        product(input, outCount: matrix.outCount, rows: rows) {
            matrix.multiply($0, rows: rows, bias: bias, into: $1, vectorized: vectorized)
        }
    }
}
