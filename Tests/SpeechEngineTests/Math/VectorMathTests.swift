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
}
