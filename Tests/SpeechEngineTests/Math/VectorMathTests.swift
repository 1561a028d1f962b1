import CSpeechKernels
import Foundation
@testable import SpeechEngine
import Testing

@Suite struct VectorMathTests {
    @Test func expMatchesTheLibraryWithinTwoULPsWorthOfRelativeError() {
        var worst: Double = 0
        var x: Float = -87
        while x < 88 {
            let v = VectorMath.exp(SIMD8<Float>(repeating: x))[0]
            let reference = Foundation.exp(Double(x))
            worst = max(worst, abs(Double(v) - reference) / reference)
            x += 0.0137
        }
        #expect(worst < 5e-7)
    }

    @Test func expOfMinusInfinityIsZeroAndLargeValuesStayFinite() {
        let v = VectorMath.exp(SIMD8<Float>(-.infinity, -1000, -88, 0, 1, 88, 100, 1000))
        #expect(v[0] == 0 && v[1] == 0 && v[2] == 0)
        #expect(v[3] == 1)
        #expect(abs(v[4] - Float(M_E)) < 1e-6)
        #expect(v[5].isFinite && v[6].isFinite && v[7].isFinite)
    }

    @Test func geluFollowsTheErfForm() {
        var worst: Float = 0
        var x: Float = -8
        while x < 8 {
            var values = [x]
            values.withUnsafeMutableBufferPointer { VectorMath.gelu($0) }
            let reference = 0.5 * Double(x) * (1 + erf(Double(x) / 2.0.squareRoot()))
            worst = max(worst, abs(values[0] - Float(reference)))
            x += 0.01
        }
        #expect(worst < 2e-6)
    }

    @Test func softmaxSumsToOneAndMasksInfinities() {
        var row: [Float] = (0..<37).map { Float($0 % 7) - 3 }
        row[5] = -.infinity
        row.withUnsafeMutableBufferPointer { VectorMath.softmax($0.baseAddress!, count: $0.count) }
        #expect(abs(row.reduce(0, +) - 1) < 1e-5)
        #expect(row[5] == 0)
        #expect(row[6] > row[0])
    }

    @Test(arguments: [1, 7, 8, 9, 51_865])
    func logSumExpAndMaximumMatchDirectSums(count: Int) {
        var generator = SeededGenerator(seed: UInt64(count))
        let values = (0..<count).map { _ in Float.random(in: -30...20, using: &generator) }
        let maximum = values.max()!
        let reference = Double(maximum) + Foundation.log(values.reduce(0.0) { $0 + Foundation.exp(Double($1 - maximum)) })
        values.withUnsafeBufferPointer { v in
            #expect(VectorMath.maximum(v.baseAddress!, count: count) == maximum)
            #expect(abs(Double(VectorMath.logSumExp(v.baseAddress!, count: count)) - reference) < 1e-4)
        }
    }

    @Test func logSumExpIgnoresMaskedValuesAndIsMinusInfinityWhenAllAreMasked() {
        let masked: [Float] = [-.infinity, 0, -.infinity, 0, -.infinity, -.infinity, -.infinity, -.infinity, -.infinity]
        masked.withUnsafeBufferPointer { v in
            #expect(abs(VectorMath.logSumExp(v.baseAddress!, count: v.count) - Foundation.log(2)) < 1e-6)
        }
        let allMasked = [Float](repeating: -.infinity, count: 11)
        allMasked.withUnsafeBufferPointer { v in
            #expect(VectorMath.logSumExp(v.baseAddress!, count: v.count) == -.infinity)
            #expect(VectorMath.maximum(v.baseAddress!, count: v.count) == -.infinity)
        }
    }

    /// Rows the kernels meet: attention rows of 1,500 and 1,501 keys, a
    /// decoder row with a causal mask, the vocabulary, short rows, ties, huge
    /// and tiny values (exp's clamps), ±0, +inf and NaN among them.
    static var kernelRows: [[Float]] {
        var rows: [[Float]] = [1, 7, 8, 9, 15, 16, 17, 33, 1500, 1501, 51_865].map {
            QuantizedMatrixTests.random($0, seed: UInt64($0), scale: 30)
        }
        rows.append((0..<224).map { $0 < 150 ? Float($0 % 13) * 0.7 : -.infinity })
        rows.append([3, 3, 3, -0.0, 0, -.infinity, 200, -200, 1e-30, -90, 88.2, 87])
        rows.append([Float](repeating: -.infinity, count: 20))
        rows.append([1, .nan, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        rows.append([1, 2, .infinity, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17])
        rows.append((0..<1601).map { Float($0 - 800) / 100 })   // GELU's range, both signs and zero
        return rows
    }

    /// The C kernels (AVX2, and AVX-512 where the CPU has it) give the Swift
    /// reference's bits for softmax, log-sum-exp and GELU: attention weights,
    /// activations and transcripts do not depend on which runs.
    @Test(.enabled(if: sk_softmax_vectorized() != 0, "AVX2 on this CPU"))
    func kernelsGiveTheReferenceBits() {
        for (index, row) in Self.kernelRows.enumerated() {
            var reference = row
            reference.withUnsafeMutableBufferPointer { VectorMath.softmaxReference($0.baseAddress!, count: $0.count) }
            let referenceSum = row.withUnsafeBufferPointer { VectorMath.logSumExpReference($0.baseAddress!, count: $0.count) }
            var referenceGELU = row
            referenceGELU.withUnsafeMutableBufferPointer { VectorMath.geluReference($0) }
            for form in [Int32(1), 2] {
                var kernel = row
                kernel.withUnsafeMutableBufferPointer { sk_softmax(form, $0.baseAddress!, Int32($0.count)) }
                #expect(kernel.map(\.bitPattern) == reference.map(\.bitPattern), "softmax, row \(index), form \(form)")
                let sum = row.withUnsafeBufferPointer { sk_log_sum_exp(form, $0.baseAddress!, Int32($0.count)) }
                #expect(sum.bitPattern == referenceSum.bitPattern, "log-sum-exp, row \(index), form \(form)")
                var gelu = row
                gelu.withUnsafeMutableBufferPointer { sk_gelu(form, $0.baseAddress!, $0.count) }
                #expect(gelu.map(\.bitPattern) == referenceGELU.map(\.bitPattern), "GELU, row \(index), form \(form)")
            }
        }
    }
}
