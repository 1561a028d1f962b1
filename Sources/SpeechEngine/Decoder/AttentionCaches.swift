/// Cross-attention keys and values over one window's audio features,
/// computed once per window and shared by every beam.
/// - Shape: per layer, `keys` and `values` are `[positionCount, width]`.
struct CrossAttentionCache: Sendable {
    let keys: [[Float]]
    let values: [[Float]]
    let positionCount: Int
}

/// Self-attention keys and values of the tokens decoded so far, one slot per
/// sequence (beam). All sequences hold the same number of tokens.
/// - Shape: per layer, `[sequenceCount, capacity, width]`.
struct SelfAttentionCache: Sendable {
    let width: Int
    let capacity: Int
    private(set) var sequenceCount: Int
    var keys: [[Float]]
    var values: [[Float]]
    /// Tokens cached per sequence.
    var length = 0

    init(layerCount: Int, width: Int, capacity: Int, sequenceCount: Int) {
        self.width = width
        self.capacity = capacity
        self.sequenceCount = sequenceCount
        let size = sequenceCount * capacity * width
        keys = Array(repeating: [Float](repeating: 0, count: size), count: layerCount)
        values = keys
    }

    /// Offset of position `position` of sequence `sequence` in a layer's storage.
    func offset(sequence: Int, position: Int) -> Int { (sequence * capacity + position) * width }

    /// Rebuilds the cache so that new sequence `i` continues old sequence
    /// `sources[i]` (beam search keeps, drops and duplicates beams).
    mutating func reorder(_ sources: [Int]) {
        guard sources != Array(0..<sequenceCount) else { return }
        let used = length * width
        let rowSize = capacity * width
        func gather(_ storage: [Float]) -> [Float] {
            var result = [Float](repeating: 0, count: sources.count * rowSize)
            storage.withUnsafeBufferPointer { from in
                result.withUnsafeMutableBufferPointer { to in
                    for (i, source) in sources.enumerated() {
                        (to.baseAddress! + i * rowSize).update(from: from.baseAddress! + source * rowSize, count: used)
                    }
                }
            }
            return result
        }
        keys = keys.map(gather)
        values = values.map(gather)
        sequenceCount = sources.count
    }
}
