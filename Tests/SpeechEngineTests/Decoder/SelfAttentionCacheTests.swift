@testable import SpeechEngine
import Testing

@Suite struct SelfAttentionCacheTests {
    /// A cache whose every cached value encodes (sequence, position, channel).
    func filledCache(sequences: Int, length: Int) -> SelfAttentionCache {
        var cache = SelfAttentionCache(layerCount: 1, width: 2, capacity: 448, sequenceCount: sequences, initialCapacity: 4)
        cache.reserve(length)
        for s in 0..<sequences {
            for p in 0..<length {
                for c in 0..<2 {
                    let offset = (s * cache.capacity + p) * 2 + c
                    cache.keys[0][offset] = Float(s * 1000 + p * 10 + c)
                    cache.values[0][offset] = -Float(s * 1000 + p * 10 + c)
                }
            }
        }
        cache.length = length
        return cache
    }

    func key(_ cache: SelfAttentionCache, sequence: Int, position: Int, channel: Int) -> Float {
        cache.keys[0][(sequence * cache.capacity + position) * 2 + channel]
    }

    @Test func reserveGrowsInStepsAndKeepsTheContents() {
        var cache = filledCache(sequences: 2, length: 3)
        #expect(cache.capacity == 4)
        cache.reserve(9)
        #expect(cache.capacity == 4 + SelfAttentionCache.growthStep)
        #expect(key(cache, sequence: 1, position: 2, channel: 1) == 1021)
        cache.reserve(440)
        #expect(cache.capacity == 448)
    }

    @Test func reorderDuplicatesAndDropsBeams() {
        var cache = filledCache(sequences: 3, length: 5)
        cache.reorder([2, 2, 0])
        #expect(cache.sequenceCount == 3)
        #expect(key(cache, sequence: 0, position: 4, channel: 0) == 2040)
        #expect(key(cache, sequence: 1, position: 4, channel: 0) == 2040)
        #expect(key(cache, sequence: 2, position: 1, channel: 1) == 11)
        #expect(cache.values[0][(1 * cache.capacity + 3) * 2] == -2030)
    }

    /// Every permutation and duplication pattern of three beams: the in-place
    /// reorder must match copying each slot from its source.
    @Test(arguments: [[1, 2, 0], [2, 0, 1], [1, 0, 2], [0, 0, 0], [1, 1, 1], [0, 2, 2], [2, 1, 0], [0, 1, 0]])
    func reorderMatchesCopyingFromEachSource(_ sources: [Int]) {
        var cache = filledCache(sequences: 3, length: 5)
        cache.reorder(sources)
        for (slot, source) in sources.enumerated() {
            for position in 0..<5 {
                for channel in 0..<2 {
                    let expected = Float(source * 1000 + position * 10 + channel)
                    #expect(key(cache, sequence: slot, position: position, channel: channel) == expected)
                    #expect(cache.values[0][(slot * cache.capacity + position) * 2 + channel] == -expected)
                }
            }
        }
    }

    @Test func fanOutSharesThePromptInsteadOfCopyingIt() {
        var cache = filledCache(sequences: 1, length: 3)
        cache.reorder([0, 0, 0, 0, 0])
        #expect(cache.sequenceCount == 5)
        #expect(cache.prefixLength == 3)
        #expect(cache.prefixKeys[0] == [0, 1, 10, 11, 20, 21])
        #expect(cache.prefixValues[0] == [0, -1, -10, -11, -20, -21])
        // Beam slots hold only what comes after the prompt.
        #expect(cache.keys[0].count == 5 * SelfAttentionCache.growthStep * 2)
        cache.reserve(3 + 40)
        #expect(cache.capacity == 2 * SelfAttentionCache.growthStep)
    }

    @Test func reorderAfterFanOutMovesOnlyTheBeamsOwnPositions() {
        var cache = filledCache(sequences: 1, length: 2)
        cache.reorder([0, 0, 0])
        cache.reserve(4)
        // Two decoded positions per beam, tagged by beam.
        for beam in 0..<3 {
            for position in 0..<2 {
                cache.keys[0][(beam * cache.capacity + position) * 2] = Float(100 * (beam + 1) + position)
            }
        }
        cache.length = 4
        cache.reorder([2, 0, 0])
        #expect(cache.keys[0][0] == 300 && cache.keys[0][2] == 301)
        #expect(cache.keys[0][cache.capacity * 2] == 100)
        #expect(cache.keys[0][2 * cache.capacity * 2 + 2] == 101)
        #expect(cache.prefixKeys[0] == [0, 1, 10, 11])
    }
}
