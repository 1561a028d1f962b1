import CFloat16
import CSpeechKernels
import Foundation
@testable import SpeechEngine
import Testing

/// Attention over stored key and value rows (float: the self-attention
/// cache; half: the cross-attention cache; int8 with a scale per position
/// and head, and int8 keys packed with a scale per channel: int8-mixed's
/// cross-attention cache) against the sgemm path over the same values
/// widened to float: equal up to the order of float sums (1e-5) — for
/// packed keys, up to the queries' two-level quantization, whose bound is
/// checked — for decoder steps (the kernels, portable and fastest forms)
/// and prompts, with the raw scores word timing reads.
@Suite struct AttentionHeadStoredRowsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let element: Element, rows: Int, keyCount: Int, width: Int
        var testDescription: String { "\(element), \(rows) rows × \(keyCount) keys, head \(width)" }
    }

    enum Element: String, CaseIterable, Sendable {
        case float, half, int8PerPosition, int8PerChannel
    }

    /// `count` rows of `stride` values (heads of `headWidth` side by side)
    /// as `element` stores them, with the floats they stand for.
    struct Stored {
        var rows: CrossAttentionCache.Rows
        var values: [Float]

        init(_ element: Element, count: Int, stride: Int, headWidth: Int, seed: UInt64, scale: Float = 1) {
            let random = QuantizedMatrixTests.random(count * stride, seed: seed, scale: scale)
            // Bytes over the full range.
            let bytes = random.map { Int8(clamping: Int(($0 / scale * 127).rounded())) }
            switch element {
            case .float:
                (rows, values) = (.float(random), random)
            case .half:
                let bits = random.map { Float16($0).bitPattern }
                (rows, values) = (.half(bits), bits.map { Float(Float16(bitPattern: $0)) })
            case .int8PerPosition:
                // `[headCount, count]`, as the cache keeps them.
                let scales = (0..<(stride / headWidth * count)).map { 0.01 + abs(random[$0]) / 50 }
                rows = .int8(bytes, scales: scales)
                values = bytes.indices.map { i in
                    Float(bytes[i]) * scales[(i % stride) / headWidth * count + i / stride]
                }
            case .int8PerChannel:
                // Scales as the cache computes them (each channel's largest / 127), so that the
                // packing reproduces `bytes`.
                let scales = (0..<stride).map { 0.01 + abs(random[$0 + stride]) / 50 }
                let scaled = bytes.indices.map { Float(bytes[$0]) * scales[$0 % stride] }
                // The cache packs from its fused key-value rows: these rows, then as many zeros.
                let fused = (0..<count).flatMap { j in scaled[(j * stride)..<((j + 1) * stride)] + Array(repeating: 0, count: stride) }
                let packed = CrossAttentionCache.packedPerChannel(fused, column: 0, positionCount: count, width: stride,
                                                                  headWidth: headWidth)
                rows = .packed(packed)
                // The widened values are what the packed bytes stand for.
                values = bytes.indices.map { i in
                    Float(Stored.packedByte(packed, row: i / stride, column: i % stride, headWidth: headWidth))
                        * packed.scales[i % stride]
                }
            }
        }

        /// The byte of `row` and `column` in packed rows.
        static func packedByte(_ packed: CrossAttentionCache.Rows.Packed, row: Int, column: Int, headWidth: Int) -> Int8 {
            let (head, d) = column.quotientAndRemainder(dividingBy: headWidth)
            return packed.bytes[head * packed.paddedCount * headWidth + row / 16 * 16 * headWidth + d / 4 * 64
                                + row % 16 * 4 + d % 4]
        }

        /// Calls `body` with head `head` of keys `self` and values `other`.
        func withRows<R>(head: Int, headWidth: Int, values other: Stored, stride: Int, count: Int,
                         _ body: (AttentionHead.StoredRows) -> R) -> R {
            rows.withBases { keyBases in
                other.rows.withBases { valueBases in
                    body(AttentionHead.StoredRows(
                        keys: rows.part(head: head, keyBases, headWidth: headWidth, positionCount: count),
                        values: other.rows.part(head: head, valueBases, headWidth: headWidth, positionCount: count),
                        stride: stride, count: count))
                }
            }
        }
    }

    /// Steps of greedy and beam-5 decoding over 1500 positions (base and tiny
    /// heads of 64), the few-row limit and one past it (prompts), and head
    /// widths the vector form does not take (20) or takes with an odd count of vectors (24).
    static let cases = Element.allCases.flatMap { element in
        [Case(element: element, rows: 1, keyCount: 1500, width: 64), Case(element: element, rows: 5, keyCount: 1500, width: 64),
         Case(element: element, rows: 8, keyCount: 333, width: 64), Case(element: element, rows: 9, keyCount: 333, width: 64),
         Case(element: element, rows: 3, keyCount: 50, width: 20), Case(element: element, rows: 2, keyCount: 70, width: 24)]
    }

    @Test(arguments: cases)
    func matchesTheFloatPathOverTheWidenedValues(_ shape: Case) {
        let (rows, keyCount, width) = (shape.rows, shape.keyCount, shape.width)
        // Keys and values interleaved with another head's, as in the cache (stride 2 × width).
        let stride = 2 * width
        let query = QuantizedMatrixTests.random(rows * stride, seed: 41, scale: 2)
        let keys = Stored(shape.element, count: keyCount, stride: stride, headWidth: width, seed: 42, scale: 3)
        // Values are never packed: int8-mixed keeps them per position.
        let values = Stored(shape.element == .int8PerChannel ? .int8PerPosition : shape.element, count: keyCount,
                            stride: stride, headWidth: width, seed: 43)
        let head = AttentionHead(headWidth: width, scale: 1 / Float(width).squareRoot())
        let offset = width
        // Packed keys meet queries quantized in two levels: each value of the scaled query row off by
        // at most its largest / (2 · 127 · 254), so a score by that times the key's Σ|byte|, the
        // weights (softmax) by twice the largest score error, each output by that times the largest value.
        let scoreBound: [Float] = (0..<(rows * keyCount)).map { i in
            guard case .packed(let packed) = keys.rows else { return 0 }
            let (r, j) = i.quotientAndRemainder(dividingBy: keyCount)
            let largest = (0..<width).map { abs(query[r * stride + offset + $0] * packed.scales[offset + $0] * head.scale) }.max()!
            let bytes = (0..<width).reduce(Float(0)) {
                $0 + abs(Float(Stored.packedByte(packed, row: j, column: offset + $1, headWidth: width)))
            }
            return largest / (2 * 127 * 254) * bytes * 1.001
        }
        let rowBound = (0..<rows).map { r in scoreBound[(r * keyCount)..<((r + 1) * keyCount)].max()! }
        let largestValue = values.values.map(abs).max()!

        var expectedScores = [Float](repeating: 0, count: rows * keyCount)
        var expectedRaw = expectedScores
        var expected = [Float](repeating: 0, count: rows * stride)
        // More rows than the kernels take, so that this is the sgemm path; the rows wanted are the first.
        let padded = Linear.rowsThroughGEMV + 1
        var paddedQuery = query + [Float](repeating: 0, count: max(0, padded - rows) * stride)
        var paddedScores = [Float](repeating: 0, count: max(rows, padded) * keyCount)
        var paddedRaw = paddedScores
        var paddedOutput = [Float](repeating: 0, count: max(rows, padded) * stride)
        paddedQuery.withUnsafeMutableBufferPointer { q in
            head.attend(query: q.baseAddress! + offset, queryStride: stride, queryCount: max(rows, padded),
                        key: Array(keys.values[offset...]), keyStride: stride,
                        value: Array(values.values[offset...]), valueStride: stride,
                        keyCount: keyCount, causalOffset: nil, scores: &paddedScores, rawScores: &paddedRaw,
                        output: &paddedOutput, outputStride: stride)
        }
        expectedScores = Array(paddedScores[0..<(rows * keyCount)])
        expectedRaw = Array(paddedRaw[0..<(rows * keyCount)])
        expected = Array(paddedOutput[0..<(rows * stride)])
        var rawBits: [[UInt32]] = []
        for vectorized in [false, true] {
            var scores = [Float](repeating: .nan, count: rows * keyCount)
            var raw = scores
            var output = [Float](repeating: 0, count: rows * stride)
            keys.withRows(head: 1, headWidth: width, values: values, stride: stride, count: keyCount) { stored in
                head.attend(query: Array(query[offset...]), queryStride: stride, queryCount: rows, rows: stored,
                            scores: &scores, rawScores: &raw, output: &output, outputStride: stride,
                            vectorized: vectorized)
            }
            let label = "vectorized \(vectorized)"
            #expect(raw.indices.allSatisfy { abs(raw[$0] - expectedRaw[$0]) <= 1e-5 * max(1, abs(expectedRaw[$0])) + scoreBound[$0] },
                    "raw scores, \(label)")
            #expect(scores.indices.allSatisfy { abs(scores[$0] - expectedScores[$0]) <= 1e-5 + 2 * rowBound[$0 / keyCount] },
                    "weights, \(label)")
            #expect(output.indices.allSatisfy { i in
                abs(output[i] - expected[i]) <= 1e-5 * max(1, abs(expected[i])) + 2 * rowBound[i / stride] * largestValue
            }, "output, \(label)")
            // Only the head's own columns of each output row are written.
            #expect((0..<rows).allSatisfy { r in output[(r * stride + width)..<((r + 1) * stride)].allSatisfy { $0 == 0 } })
            rawBits.append(raw.map(\.bitPattern))
        }
        if shape.element == .int8PerChannel {
            // Integer products are exact: the portable and the fastest path give the same scores.
            #expect(rawBits[0] == rawBits[1], "packed scores differ between the portable and the fastest path")
        }
    }

    /// The AVX-512 forms (heads of 64) add in the AVX2 forms' order: the same
    /// scores and sums, bit for bit, for every element type, every row count
    /// up to the few-row limit and key counts with and without a tail after
    /// the blocks of eight; scores land at their row stride and sums that
    /// accumulate continue from the output.
    @Test(.enabled(if: sk_attention_vectorized(64) != 0, "AVX2 on this CPU"),
          arguments: [Element.float, .half, .int8PerPosition], [(1, 1500), (2, 7), (5, 1500), (6, 333), (7, 77), (8, 1501)])
    func wideFormsGiveTheAVX2Bits(element: Element, shape: (rows: Int, keyCount: Int)) {
        let (rows, keyCount) = shape
        let width = 64, stride = 3 * width, scoresStride = keyCount + 5
        let query = QuantizedMatrixTests.random(rows * stride, seed: 51, scale: 2)
        let keys = Stored(element, count: keyCount, stride: stride, headWidth: width, seed: 52, scale: 3)
        let weights = QuantizedMatrixTests.random(rows * scoresStride, seed: 53).map(abs)
        let start = QuantizedMatrixTests.random(rows * stride, seed: 54)
        func run(_ form: Int32, accumulate: Bool) -> (scores: [UInt32], sums: [UInt32]) {
            var scores = [Float](repeating: .nan, count: rows * scoresStride)
            var sums = start
            keys.withRows(head: 1, headWidth: width, values: keys, stride: stride, count: keyCount) { stored in
                sk_attention_scores(form, stored.keys.element, stored.keys.base, stored.keys.rowScales, Int32(stride),
                                    Int32(keyCount),
                                    Int32(width), query, Int32(stride), Int32(rows), 0.125, &scores, Int32(scoresStride))
                sk_attention_sums(form, stored.values.element, stored.values.base, stored.values.rowScales, Int32(stride),
                                  Int32(keyCount),
                                  Int32(width), weights, Int32(scoresStride), Int32(rows), accumulate ? 1 : 0, &sums,
                                  Int32(stride))
            }
            #expect((0..<rows).allSatisfy { r in scores[(r * scoresStride + keyCount)..<((r + 1) * scoresStride)].allSatisfy(\.isNaN) },
                    "only each row's scores written")
            #expect((0..<rows).allSatisfy { r in
                sums[(r * stride + width)..<((r + 1) * stride)] == start[(r * stride + width)..<((r + 1) * stride)]
            }, "only the head's columns written")
            let written = (0..<rows).flatMap { r in sums[(r * stride)..<(r * stride + width)] }
            let scored = (0..<rows).flatMap { r in scores[(r * scoresStride)..<(r * scoresStride + keyCount)] }
            return (scored.map(\.bitPattern), written.map(\.bitPattern))
        }
        for accumulate in [false, true] {
            let (avx2, fastest) = (run(1, accumulate: accumulate), run(2, accumulate: accumulate))
            let label = "\(element), \(rows) rows × \(keyCount) keys, accumulate \(accumulate)"
            #expect(fastest.scores == avx2.scores, "scores, \(label)")
            #expect(fastest.sums == avx2.sums, "sums, \(label)")
            #expect(avx2.scores.allSatisfy { !Float(bitPattern: $0).isNaN }, "every score written, \(label)")
        }
        // Accumulating adds the zero-start sums to the start, up to rounding.
        let fresh = run(2, accumulate: false).sums.map(Float.init(bitPattern:))
        let continued = run(2, accumulate: true).sums.map(Float.init(bitPattern:))
        let startHead = (0..<rows).flatMap { r in start[(r * stride)..<(r * stride + width)] }
        #expect(zip(continued, zip(fresh, startHead)).allSatisfy { abs($0 - ($1.0 + $1.1)) <= 1e-4 * max(1, abs($0)) })
    }

    /// Keys packed with a scale per channel: every byte is its value over
    /// the channel's scale (its largest / 127) to within half a step, in the
    /// kernels' layout (rows in blocks of 16, channels in groups of 4), with
    /// each row's byte sum; the rows that pad the last block are zero. Whole
    /// heads only: the other columns of the fused key-value rows are left alone.
    @Test(arguments: [(positions: 1500, width: 128, headWidth: 64), (positions: 37, width: 40, headWidth: 20)])
    func packingByChannelKeepsEachValueWithinHalfAStep(_ shape: (positions: Int, width: Int, headWidth: Int)) {
        let (positions, width, headWidth) = shape
        // Channels of different ranges, the last one all zero; keys in the first half of each fused row.
        var fused = QuantizedMatrixTests.random(positions * 2 * width, seed: 61)
        for j in 0..<positions {
            for c in 0..<width { fused[j * 2 * width + c] *= c == width - 1 ? 0 : Float(1 + c % 7) }
        }
        let packed = CrossAttentionCache.packedPerChannel(fused, column: 0, positionCount: positions, width: width,
                                                          headWidth: headWidth)
        #expect(packed.paddedCount == (positions + 15) / 16 * 16)
        for c in 0..<width {
            let largest = (0..<positions).map { abs(fused[$0 * 2 * width + c]) }.max()!
            #expect(packed.scales[c] == (largest > 0 ? largest / 127 : 1))
        }
        var worst: Float = 0
        for j in 0..<packed.paddedCount {
            for c in 0..<width {
                let byte = Stored.packedByte(packed, row: j, column: c, headWidth: headWidth)
                guard j < positions else {
                    #expect(byte == 0, "padding row \(j)")
                    continue
                }
                worst = max(worst, abs(Float(byte) * packed.scales[c] - fused[j * 2 * width + c]) / packed.scales[c])
            }
        }
        #expect(worst <= 0.5 + 1e-4, "largest error \(worst) steps")
        for h in 0..<(width / headWidth) {
            for j in 0..<packed.paddedCount {
                let sum = (0..<headWidth).reduce(Int32(0)) {
                    $0 + Int32(Stored.packedByte(packed, row: j, column: h * headWidth + $1, headWidth: headWidth))
                }
                #expect(packed.sums[h * packed.paddedCount + j] == sum, "head \(h), row \(j)")
            }
        }
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
