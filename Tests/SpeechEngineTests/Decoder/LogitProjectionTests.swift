import CSpeechKernels
import Foundation
@testable import SpeechEngine
import Testing

/// The screened logits (`LogitProjection`): every value that can decide a
/// token carries the half product's bits, the rest are within the int8
/// weights' rounding of it, and the log-softmax's normaliser moves by less
/// than 1e-3 (one-level int8 activations moved it by ~0.1 on the model's
/// hidden states; Benchmarks/RESULTS.md).
@Suite struct LogitProjectionTests {
    /// A vocabulary of 4,000 whose last 400 play the timestamps, 512 wide.
    static let (vocabulary, width, exactFrom) = (4000, 512, 3600)

    /// Half embeddings of a checkpoint's magnitude and hidden rows with a
    /// few large channels, as the decoder's final layer norm leaves them.
    static func operands(rows: Int, seed: UInt64, scale: Float = 3) -> (projection: LogitProjection, hidden: [Float]) {
        let bits = QuantizedMatrixTests.random(vocabulary * width, seed: seed, scale: 0.1).map { Float16($0).bitPattern }
        let embeddings = Linear(weights: .half(HalfMatrix(bits: bits, outCount: vocabulary, inCount: width)), bias: [],
                                inCount: width, outCount: vocabulary)
        var hidden = QuantizedMatrixTests.random(rows * width, seed: seed + 1, scale: scale)
        for r in 0..<rows { for channel in [7, 300, 497] { hidden[r * width + channel] *= 40 } }
        return (LogitProjection(embeddings: embeddings, exactFrom: exactFrom, screened: true), hidden)
    }

    /// Each row alone through the few-row half kernel: the exact values' bits.
    static func exact(_ projection: LogitProjection, _ hidden: [Float], rows: Int) -> [Float] {
        guard case .half(let matrix) = projection.embeddings.weights else { fatalError("half embeddings") }
        var output = [Float](repeating: .nan, count: rows * vocabulary)
        hidden.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { y in
                for r in 0..<rows {
                    matrix.multiply(x.baseAddress! + r * width, rows: 1, bias: [], into: y.baseAddress! + r * vocabulary)
                }
            }
        }
        return output
    }

    static func logSumExp(_ values: ArraySlice<Float>) -> Double {
        let largest = Double(values.max()!)
        return largest + log(values.reduce(0.0) { $0 + exp(Double($1) - largest) })
    }

    @Test(arguments: [1, 5, 8, 12])
    func whatCanDecideATokenIsExact(rows: Int) throws {
        let (projection, hidden) = Self.operands(rows: rows, seed: 51)
        #expect(projection.screen != nil)
        let screened = ComputeThreads.with(2) { projection(hidden, rows: rows, screened: true) }
        let exact = Self.exact(projection, hidden, rows: rows)
        let weights = Self.magnitudes(try #require(projection.screen))
        for r in 0..<rows {
            let range = (r * Self.vocabulary)..<((r + 1) * Self.vocabulary)
            let row = Array(screened[range]), truth = Array(exact[range])
            let same = row.indices.filter { row[$0].bitPattern == truth[$0].bitPattern }
            #expect(same.count < Self.vocabulary, "row \(r): the screen took nothing (nothing is tested)")
            // The rest within the weights' rounding (the residual level makes the activations' negligible).
            let bound = Self.bound(hidden, row: r, weights: weights)
            #expect(row.indices.allSatisfy { abs(row[$0] - truth[$0]) <= bound[$0] }, "row \(r): outside the bound")
            // Exact: every timestamp; every token that, whatever the screen's
            // errors (at most `error`), is within the margin of the best or
            // among the 16 best.
            #expect((Self.exactFrom..<Self.vocabulary).allSatisfy { row[$0].bitPattern == truth[$0].bitPattern })
            let error = row.indices.map { abs(row[$0] - truth[$0]) }.max()!
            let order = (0..<Self.exactFrom).sorted { truth[$0] > truth[$1] }
            let best = truth[order[0]], sixteenth = truth[order[LogitProjection.least - 1]]
            let sure = (0..<Self.exactFrom).filter {
                truth[$0] >= best - LogitProjection.margin + 2 * error || truth[$0] >= sixteenth + 2 * error
            }
            #expect(sure.count >= 8, "row \(r): only \(sure.count) tokens surely exact (error \(error))")
            #expect(sure.allSatisfy { row[$0].bitPattern == truth[$0].bitPattern }, "row \(r): a deciding token screened")
            #expect(row.firstIndex(of: row.max()!) == truth.firstIndex(of: truth.max()!))
            let shift = abs(Self.logSumExp(row[...]) - Self.logSumExp(truth[...]))
            #expect(shift < 1e-3, "row \(r): the normaliser moved by \(shift)")
        }
    }

    /// Per output: half the weight step times `Σ|x|`, the second activation
    /// level's half step times `Σ|w|`, and float rounding.
    static func bound(_ hidden: [Float], row: Int, weights: [(maximum: Float, sum: Float)]) -> [Float] {
        let x = hidden[(row * width)..<((row + 1) * width)]
        let sumX = x.reduce(0) { $0 + abs($1) }, xStep = x.map(abs).max()! / 127 / 254
        return weights.map { w in sumX * (w.maximum / 127) / 2 + xStep / 2 * w.sum + 1e-4 * sumX * w.maximum + 1e-5 }
    }

    /// Each int8 weight row's largest magnitude and sum of magnitudes.
    static func magnitudes(_ screen: QuantizedMatrix) -> [(maximum: Float, sum: Float)] {
        var widened = [Float](repeating: 0, count: width)
        return (0..<vocabulary).map { o in
            widened.withUnsafeMutableBufferPointer { screen.copyRow(o, into: $0.baseAddress!) }
            return (widened.map(abs).max()!, widened.reduce(0) { $0 + abs($1) })
        }
    }

    /// A nearly flat row (every logit within the margin of the best, more
    /// than the capacity) is computed exactly whole.
    @Test func aFlatRowIsExactWhole() {
        let (projection, hidden) = Self.operands(rows: 2, seed: 61, scale: 0.002)
        let screened = projection(hidden, rows: 2, screened: true), exact = Self.exact(projection, hidden, rows: 2)
        #expect(screened.map(\.bitPattern) == exact.map(\.bitPattern))
    }

    /// Asked for exact logits (sampling, word alignment), without a screen,
    /// or with float or int8 embeddings, the projection is the layer.
    @Test func unscreenedItIsTheLayer() {
        let (screened, hidden) = Self.operands(rows: 3, seed: 71)
        let layer = screened.embeddings(hidden, rows: 3).map(\.bitPattern)
        #expect(screened(hidden, rows: 3, screened: false).map(\.bitPattern) == layer)
        #expect(screened(hidden, rows: 3, screened: true).map(\.bitPattern) != layer)
        let plain = LogitProjection(embeddings: screened.embeddings, exactFrom: Self.exactFrom, screened: false)
        #expect(plain.screen == nil)
        #expect(plain(hidden, rows: 3, screened: true).map(\.bitPattern) == layer)
        let weight = QuantizedMatrixTests.random(40 * 16, seed: 72)
        for type in [ComputeType.float32, .int8] {
            let layer = Linear(weight: weight, bias: [], inCount: 16, outCount: 40, computeType: type)
            #expect(LogitProjection(embeddings: layer, exactFrom: 30, screened: true).screen == nil, "\(type)")
        }
        // The int8 copy: a byte per weight (inputs padded to 4) and a scale and a sum per row.
        #expect(screened.screenByteCount == Self.vocabulary * (Self.width + 8))
    }

    // MARK: The contenders kernel

    static func contenders(_ row: [Float], margin: Float, least: Int, capacity: Int, vectorized: Int32) -> [Int]? {
        var indices = [Int32](repeating: -1, count: capacity)
        let count = sk_logit_contenders(vectorized, row, Int32(row.count), margin, Int32(least), &indices, Int32(capacity))
        return count < 0 ? nil : indices[..<Int(count)].map(Int.init).sorted()
    }

    @Test func contendersAreTheNearOnesOrTheBestFew() {
        let row: [Float] = [0, 9, -3, 8.5, 5.1, .nan, 4.9, 9, -.infinity, 1] + Array(repeating: -20, count: 23)
        for vectorized: Int32 in [0, 1] {
            // Within 4 of the best (9): 9, 8.5, 5.1, 9; NaN never counts.
            #expect(Self.contenders(row, margin: 4, least: 3, capacity: 64, vectorized: vectorized) == [1, 3, 4, 7])
            // Fewer than `least` near the best: the `least` best instead.
            #expect(Self.contenders(row, margin: 4, least: 6, capacity: 64, vectorized: vectorized) == [1, 3, 4, 6, 7, 9])
            #expect(Self.contenders(row, margin: 0.1, least: 1, capacity: 64, vectorized: vectorized) == [1, 7])
            // More than the capacity: none (the caller computes the row whole).
            #expect(Self.contenders(row, margin: 40, least: 1, capacity: 8, vectorized: vectorized) == nil)
            #expect(Self.contenders([-.infinity, .nan], margin: 4, least: 2, capacity: 8, vectorized: vectorized) == [])
        }
        let long = QuantizedMatrixTests.random(51_865, seed: 81, scale: 10)
        for (margin, least) in [(Float(0.2), 16), (0.001, 16), (0.01, 40)] {
            let portable = Self.contenders(long, margin: margin, least: least, capacity: 2048, vectorized: 0)
            #expect(portable == Self.contenders(long, margin: margin, least: least, capacity: 2048, vectorized: 1))
            let best = long.max()!
            let expected = long.indices.filter { long[$0] >= best - margin }
            #expect(portable == (expected.count >= least ? expected
                                 : long.indices.sorted { long[$0] > long[$1] }.prefix(least).sorted()))
        }
    }
}
