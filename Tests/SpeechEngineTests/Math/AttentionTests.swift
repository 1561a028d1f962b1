import Foundation
@testable import SpeechEngine
import Testing

@Suite struct AttentionHeadTests {
    /// softmax(q·kᵀ·scale)·v written out, for one query row.
    static func reference(query: [Float], keys: [Float], values: [Float], keyCount: Int, width: Int, scale: Float) -> [Float] {
        var scores = (0..<keyCount).map { k in
            (0..<width).reduce(Float(0)) { $0 + query[$1] * keys[k * width + $1] } * scale
        }
        let maximum = scores.max()!
        scores = scores.map { expf($0 - maximum) }
        let total = scores.reduce(0, +)
        return (0..<width).map { c in (0..<keyCount).reduce(Float(0)) { $0 + scores[$1] / total * values[$1 * width + c] } }
    }

    /// Decoder steps over a cache with a shared prefix (the prompt) and each
    /// sequence's own keys (beams): every row as if its sequence's cache held
    /// the prefix and its own keys in one, the causal limit counted over both.
    @Test(arguments: [(sequences: 1, length: 1), (3, 1), (5, 1), (2, 3)])
    func sharedPrefixKeysGiveTheSameResultAsOneConcatenatedCache(shape: (sequences: Int, length: Int)) {
        let (sequences, length) = shape
        let width = 64, prefixCount = 7, ownCount = 5 + length, scale: Float = 0.25
        let capacity = ownCount + 3, queryStride = 3 * width, outputStride = 2 * width
        let query = LinearTests.random(sequences * length * queryStride, seed: 4)
        let prefixKeys = LinearTests.random(prefixCount * width, seed: 5)
        let prefixValues = LinearTests.random(prefixCount * width, seed: 6)
        let keys = LinearTests.random(sequences * capacity * width, seed: 7)
        let values = LinearTests.random(sequences * capacity * width, seed: 8)
        let head = AttentionHead(headWidth: width, scale: scale)
        var scores = [Float](repeating: 0, count: sequences * length * (prefixCount + ownCount))
        var output = [Float](repeating: 0, count: sequences * length * outputStride)
        let causalOffset = prefixCount + ownCount - length
        prefixKeys.withUnsafeBufferPointer { pk in
            prefixValues.withUnsafeBufferPointer { pv in
                keys.withUnsafeBufferPointer { k in
                    values.withUnsafeBufferPointer { v in
                        head.attendCached(query: query, queryStride: queryStride, sequences: sequences, length: length,
                                          prefix: .float(key: pk.baseAddress!, value: pv.baseAddress!, stride: width,
                                                         count: prefixCount),
                                          own: .float(key: k.baseAddress!, value: v.baseAddress!, stride: width,
                                                      count: ownCount),
                                          ownSequenceStride: capacity * width, causalOffset: causalOffset,
                                          scores: &scores, output: &output, outputStride: outputStride)
                    }
                }
            }
        }
        for s in 0..<sequences {
            let own = (s * capacity * width)..<((s * capacity + ownCount) * width)
            let allKeys = prefixKeys + keys[own], allValues = prefixValues + values[own]
            for i in 0..<length {
                let row = s * length + i
                let visible = causalOffset + i + 1
                let expected = Self.reference(query: Array(query[(row * queryStride)..<(row * queryStride + width)]),
                                              keys: Array(allKeys[0..<(visible * width)]),
                                              values: Array(allValues[0..<(visible * width)]), keyCount: visible,
                                              width: width, scale: scale)
                let actual = output[(row * outputStride)..<(row * outputStride + width)]
                #expect(zip(actual, expected).allSatisfy { abs($0 - $1) < 1e-5 }, "sequence \(s), row \(i)")
                // The scores are the attention weights over prefix and own keys together.
                let weights = scores[(row * (prefixCount + ownCount))..<((row + 1) * (prefixCount + ownCount))]
                #expect(abs(weights.reduce(0, +) - 1) < 1e-5)
                #expect(weights.dropFirst(visible).allSatisfy { $0 == 0 }, "masked keys weigh nothing")
            }
            // The other columns of each output row are not written.
            #expect(output[(s * length * outputStride)..<((s + 1) * length * outputStride)].enumerated()
                .allSatisfy { $0.offset % outputStride < width || $0.element == 0 })
        }
    }

    @Test func fewQueriesThroughTheKernelsMatchManyQueriesThroughSgemm() {
        let width = 8, keyCount = 30, queryCount = 12, scale: Float = 0.3
        let queries = LinearTests.random(queryCount * width, seed: 7)
        let keys = LinearTests.random(keyCount * width, seed: 8)
        let values = LinearTests.random(keyCount * width, seed: 9)
        let head = AttentionHead(headWidth: width, scale: scale)
        var scores = [Float](repeating: 0, count: queryCount * keyCount)
        var many = [Float](repeating: 0, count: queryCount * width)
        head.attend(query: queries, queryStride: width, queryCount: queryCount, key: keys, keyStride: width,
                    value: values, valueStride: width, keyCount: keyCount, causalOffset: nil,
                    scores: &scores, output: &many, outputStride: width)
        for row in [0, 5, 11] {
            var one = [Float](repeating: 0, count: width)
            let query = Array(queries[(row * width)..<((row + 1) * width)])
            head.attend(query: query, queryStride: width, queryCount: 1, key: keys, keyStride: width,
                        value: values, valueStride: width, keyCount: keyCount, causalOffset: nil,
                        scores: &scores, output: &one, outputStride: width)
            #expect(zip(one, many[(row * width)..<((row + 1) * width)]).allSatisfy { abs($0 - $1) < 1e-5 })
        }
    }
}
