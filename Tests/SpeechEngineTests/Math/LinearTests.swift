@testable import SpeechEngine
import Testing

/// `Linear.multiply` takes three paths (blocked sgemv per row for decoder
/// steps, row-split sgemm for windows and prompts, on one or two threads);
/// all must give `x · Wᵀ` to float accuracy.
@Suite struct LinearTests {
    static func random(_ count: Int, seed: UInt64) -> [Float] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in Float.random(in: -1...1, using: &generator) }
    }

    static func reference(_ input: [Float], rows: Int, weight: [Float], outCount: Int, inCount: Int) -> [Float] {
        var output = [Float](repeating: 0, count: rows * outCount)
        for r in 0..<rows {
            for o in 0..<outCount {
                var sum: Double = 0
                for i in 0..<inCount { sum += Double(input[r * inCount + i]) * Double(weight[o * inCount + i]) }
                output[r * outCount + o] = Float(sum)
            }
        }
        return output
    }

    // Output counts that do not divide into the sgemv blocks or the thread halves.
    @Test(arguments: [(1, 1), (1, 2), (5, 1), (5, 2), (8, 2), (9, 2), (40, 1), (40, 2)])
    func everyPathComputesTheProduct(rows: Int, threads: Int) {
        let inCount = 96, outCount = 3_001
        let input = Self.random(rows * inCount, seed: 1)
        let weight = Self.random(outCount * inCount, seed: 2)
        let bias = Self.random(outCount, seed: 3)
        let layer = Linear(weight: weight, bias: bias, inCount: inCount, outCount: outCount)
        let previous = ComputeThreads.current
        ComputeThreads.use(threads)
        defer { ComputeThreads.use(previous) }
        let output = layer(input, rows: rows)
        let expected = Self.reference(input, rows: rows, weight: weight, outCount: outCount, inCount: inCount)
        var worst: Float = 0
        for r in 0..<rows {
            for o in 0..<outCount {
                worst = max(worst, abs(output[r * outCount + o] - expected[r * outCount + o] - bias[o]))
            }
        }
        #expect(worst < 1e-4)
    }
}
