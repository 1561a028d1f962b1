import CFloat16
import CSpeechKernels
import Foundation
@testable import SpeechEngine
import Testing

/// Attention over half keys and values (the cross-attention cache) against
/// the float path over the same values widened: equal up to the order of
/// float sums (1e-5), for decoder steps (the half kernels, both forms) and
/// prompts (widened to float), with the raw scores word timing reads.
@Suite struct AttentionHeadHalfTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let rows: Int, keyCount: Int, width: Int
        var testDescription: String { "\(rows) rows × \(keyCount) keys, head \(width)" }
    }

    /// Steps of greedy and beam-5 decoding over 1500 positions (base and tiny
    /// heads of 64), the few-row limit and one past it (prompts), and head
    /// widths the vector form does not take (20) or takes with an odd count of vectors (24).
    static let cases = [
        Case(rows: 1, keyCount: 1500, width: 64), Case(rows: 5, keyCount: 1500, width: 64),
        Case(rows: 8, keyCount: 333, width: 64), Case(rows: 9, keyCount: 333, width: 64),
        Case(rows: 3, keyCount: 50, width: 20), Case(rows: 2, keyCount: 70, width: 24),
    ]

    @Test(arguments: cases)
    func matchesTheFloatPathOverTheWidenedValues(_ shape: Case) {
        let (rows, keyCount, width) = (shape.rows, shape.keyCount, shape.width)
        // Keys and values interleaved with another head's, as in the cache (stride 2 × width).
        let stride = 2 * width
        let query = QuantizedMatrixTests.random(rows * stride, seed: 41, scale: 2)
        let keyBits = QuantizedMatrixTests.random(keyCount * stride, seed: 42, scale: 3).map { Float16($0).bitPattern }
        let valueBits = QuantizedMatrixTests.random(keyCount * stride, seed: 43).map { Float16($0).bitPattern }
        let keys = keyBits.map { Float(Float16(bitPattern: $0)) }
        let values = valueBits.map { Float(Float16(bitPattern: $0)) }
        let head = AttentionHead(headWidth: width, scale: 1 / Float(width).squareRoot())
        let offset = width

        var expectedScores = [Float](repeating: 0, count: rows * keyCount)
        var expectedRaw = expectedScores
        var expected = [Float](repeating: 0, count: rows * stride)
        head.attend(query: Array(query[offset...]), queryStride: stride, queryCount: rows,
                    key: Array(keys[offset...]), keyStride: stride, value: Array(values[offset...]), valueStride: stride,
                    keyCount: keyCount, causalOffset: nil, scores: &expectedScores, rawScores: &expectedRaw,
                    output: &expected, outputStride: stride)
        for vectorized in [false, true] {
            var scores = [Float](repeating: .nan, count: rows * keyCount)
            var raw = scores
            var output = [Float](repeating: 0, count: rows * stride)
            keyBits.withUnsafeBufferPointer { k in
                valueBits.withUnsafeBufferPointer { v in
                    head.attend(query: Array(query[offset...]), queryStride: stride, queryCount: rows,
                                halfKey: k.baseAddress! + offset, halfValue: v.baseAddress! + offset, stride: stride,
                                keyCount: keyCount, scores: &scores, rawScores: &raw,
                                output: &output, outputStride: stride, vectorized: vectorized)
                }
            }
            let label = "vectorized \(vectorized)"
            #expect(zip(raw, expectedRaw).allSatisfy { abs($0 - $1) <= 1e-5 * max(1, abs($1)) }, "raw scores, \(label)")
            #expect(zip(scores, expectedScores).allSatisfy { abs($0 - $1) <= 1e-5 }, "weights, \(label)")
            #expect(zip(output, expected).allSatisfy { abs($0 - $1) <= 1e-5 }, "output, \(label)")
            // Only the head's own columns of each output row are written.
            #expect((0..<rows).allSatisfy { r in output[(r * stride + width)..<((r + 1) * stride)].allSatisfy { $0 == 0 } })
        }
    }

    /// The AVX-512 forms (heads of 64) add in the AVX2 forms' order: the same
    /// scores and sums, bit for bit, for every row count up to the few-row
    /// limit and key counts with and without a tail after the blocks of eight.
    @Test(.enabled(if: sk_half_attention_vectorized(64) != 0, "AVX2 on this CPU"),
          arguments: [(1, 1500), (2, 7), (5, 1500), (6, 333), (7, 77), (8, 1501)])
    func wideFormsGiveTheAVX2Bits(rows: Int, keyCount: Int) {
        let width = 64, stride = 3 * width
        let query = QuantizedMatrixTests.random(rows * stride, seed: 51, scale: 2)
        let keys = QuantizedMatrixTests.random(keyCount * stride, seed: 52, scale: 3).map { Float16($0).bitPattern }
        let weights = QuantizedMatrixTests.random(rows * keyCount, seed: 53).map(abs)
        func run(_ form: Int32) -> (scores: [UInt32], sums: [UInt32]) {
            var scores = [Float](repeating: .nan, count: rows * keyCount)
            var sums = [Float](repeating: .nan, count: rows * stride)
            keys.withUnsafeBufferPointer { k in
                sk_attention_scores_f16(form, k.baseAddress! + width, Int32(stride), Int32(keyCount), Int32(width),
                                        query, Int32(stride), Int32(rows), 0.125, &scores)
                sk_attention_sums_f16(form, k.baseAddress! + width, Int32(stride), Int32(keyCount), Int32(width),
                                      weights, Int32(rows), &sums, Int32(stride))
            }
            let written = (0..<rows).flatMap { r in sums[(r * stride)..<(r * stride + width)] }
            return (scores.map(\.bitPattern), written.map(\.bitPattern))
        }
        let (avx2, fastest) = (run(1), run(2))
        #expect(fastest.scores == avx2.scores, "scores, \(rows) rows × \(keyCount) keys")
        #expect(fastest.sums == avx2.sums, "sums, \(rows) rows × \(keyCount) keys")
        #expect(avx2.scores.allSatisfy { !Float(bitPattern: $0).isNaN }, "every score written")
    }

    /// Narrowing rounds to nearest even as Swift's `Float16` does, on both
    /// paths: ties, subnormals, overflow to infinity, signed zero, NaN.
    @Test func narrowingToHalfRoundsAsFloat16Does() {
        let edges: [Float] = [0, -0, 1, -1, 65504, 65519.99, 65520, 1e9, -1e9, .infinity, -.infinity,
                              6.1e-5, 5.96e-8, 2.98e-8, 2.99e-8, 1e-9, 1 + 1.0 / 2048, 1 + 3.0 / 2048,
                              0.1, 1 / 3, .pi, .leastNonzeroMagnitude]
        let values = edges + QuantizedMatrixTests.random(4096, seed: 44, scale: 70_000)
            + QuantizedMatrixTests.random(4096, seed: 45, scale: 1e-4)
        let expected = values.map { Float16($0).bitPattern }
        for narrow in [cf32_to_f16, cf32_to_f16_portable] {
            var bits = [UInt16](repeating: 0, count: values.count)
            narrow(values, &bits, values.count)
            let off = values.indices.filter { bits[$0] != expected[$0] }
            #expect(off.isEmpty, "\(off.count) values off, first \(off.first.map { values[$0] } ?? 0)")
        }
        var nan = [UInt16](repeating: 0, count: 2)
        for narrow in [cf32_to_f16, cf32_to_f16_portable] {
            narrow([Float.nan, -Float.nan], &nan, 2)
            #expect(nan.allSatisfy { Float16(bitPattern: $0).isNaN })
        }
    }
}
