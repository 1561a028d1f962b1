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

    @Test func sharedPrefixKeysGiveTheSameResultAsOneConcatenatedCache() {
        let width = 16, prefixCount = 7, ownCount = 5, scale: Float = 0.25
        let query = LinearTests.random(width, seed: 4)
        let keys = LinearTests.random((prefixCount + ownCount) * width, seed: 5)
        let values = LinearTests.random((prefixCount + ownCount) * width, seed: 6)
        let head = AttentionHead(headWidth: width, scale: scale)
        var scores = [Float](repeating: 0, count: prefixCount + ownCount)
        var output = [Float](repeating: 0, count: width)
        keys.withUnsafeBufferPointer { k in
            values.withUnsafeBufferPointer { v in
                let prefix = AttentionHead.SharedKeys(key: k.baseAddress!, value: v.baseAddress!, stride: width,
                                                      count: prefixCount)
                head.attend(query: query, queryStride: width, queryCount: 1,
                            key: k.baseAddress! + prefixCount * width, keyStride: width,
                            value: v.baseAddress! + prefixCount * width, valueStride: width, keyCount: ownCount,
                            prefix: prefix, causalOffset: prefixCount + ownCount - 1,
                            scores: &scores, output: &output, outputStride: width)
            }
        }
        let expected = Self.reference(query: query, keys: keys, values: values, keyCount: prefixCount + ownCount,
                                      width: width, scale: scale)
        #expect(zip(output, expected).allSatisfy { abs($0 - $1) < 1e-5 })
        // The scores are the attention weights over prefix and own keys together.
        #expect(abs(scores.reduce(0, +) - 1) < 1e-5)
    }

    @Test func fewQueriesThroughSgemvMatchManyQueriesThroughSgemm() {
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
