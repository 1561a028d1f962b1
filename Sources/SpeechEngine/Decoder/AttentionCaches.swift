/// Cross-attention keys and values over one window's audio features,
/// computed once per window and shared by every beam.
/// - Shape: per layer, `keys` and `values` are `[positionCount, width]`.
struct CrossAttentionCache: Sendable {
    let keys: [[Float]]
    let values: [[Float]]
    let positionCount: Int
}

/// Self-attention keys and values of the tokens decoded so far, one slot per
/// sequence (beam). All sequences hold the same number of tokens. Storage
/// grows on demand (most windows need far fewer than 448 positions), which
/// keeps five beams from reserving 55 MB up front.
/// - Shape: per layer, `[sequenceCount, capacity, width]`.
struct SelfAttentionCache: Sendable {
    let width: Int
    let maximumCapacity: Int
    private(set) var capacity: Int
    private(set) var sequenceCount: Int
    var keys: [[Float]]
    var values: [[Float]]
    /// Tokens cached per sequence.
    var length = 0

    init(layerCount: Int, width: Int, capacity: Int, sequenceCount: Int, initialCapacity: Int = 64) {
        self.width = width
        self.maximumCapacity = capacity
        self.capacity = min(capacity, initialCapacity)
        self.sequenceCount = sequenceCount
        let size = sequenceCount * self.capacity * width
        keys = Array(repeating: [Float](repeating: 0, count: size), count: layerCount)
        values = keys
    }

    /// Makes room for `count` positions per sequence (doubling).
    mutating func reserve(_ count: Int) {
        guard count > capacity else { return }
        precondition(count <= maximumCapacity, "decoder context overflow")
        var newCapacity = capacity
        while newCapacity < count { newCapacity *= 2 }
        newCapacity = min(newCapacity, maximumCapacity)
        relayout(sources: Array(0..<sequenceCount), capacity: newCapacity)
    }

    /// Rebuilds the cache so that new sequence `i` continues old sequence
    /// `sources[i]` (beam search keeps, drops and duplicates beams).
    mutating func reorder(_ sources: [Int]) {
        guard sources != Array(0..<sequenceCount) else { return }
        relayout(sources: sources, capacity: capacity)
    }

    private mutating func relayout(sources: [Int], capacity newCapacity: Int) {
        let used = length * width
        let oldRow = capacity * width
        let newRow = newCapacity * width
        func gather(_ storage: [Float]) -> [Float] {
            var result = [Float](repeating: 0, count: sources.count * newRow)
            storage.withUnsafeBufferPointer { from in
                result.withUnsafeMutableBufferPointer { to in
                    for (i, source) in sources.enumerated() {
                        (to.baseAddress! + i * newRow).update(from: from.baseAddress! + source * oldRow, count: used)
                    }
                }
            }
            return result
        }
        // One layer at a time, so only one layer's copy exists at once.
        for layer in keys.indices {
            keys[layer] = gather(keys[layer])
            values[layer] = gather(values[layer])
        }
        sequenceCount = sources.count
        capacity = newCapacity
    }
}
