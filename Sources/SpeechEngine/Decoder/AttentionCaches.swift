import CFloat16

/// Cross-attention keys and values over one window's audio features,
/// computed once per window and shared by every beam.
///
/// Kept in half precision unless the model computes in `float32`: for
/// whisper-base that is 18 MB a window instead of 37 MB (the largest
/// allocation of a decode after the weights, and one per chunk in batched
/// decoding); whisper.cpp keeps this cache in half as well. Attention over
/// it still multiplies and sums in float32 (`AttentionHead.attend(query:…halfKey:halfValue:…)`).
/// - Shape: per layer, keys and values are `[positionCount, width]`.
struct CrossAttentionCache: Sendable {
    enum Storage: Sendable {
        case float(keys: [[Float]], values: [[Float]])
        /// IEEE binary16 bit patterns.
        case half(keys: [[UInt16]], values: [[UInt16]])
    }

    let storage: Storage
    let positionCount: Int

    /// Splits each layer's fused `[positionCount, 2 * width]` key-value
    /// projection (`keyValue(layer)`, asked for one layer at a time so that
    /// only one float projection is held beside the cache) into keys and
    /// values, narrowed to half when `inHalf`.
    init(layerCount: Int, positionCount: Int, width: Int, inHalf: Bool, keyValue: (Int) -> [Float]) {
        self.positionCount = positionCount
        func split<Element>(_ zero: Element,
                            _ copy: (UnsafePointer<Float>, UnsafeMutablePointer<Element>, Int) -> Void)
            -> (keys: [[Element]], values: [[Element]]) {
            var keys: [[Element]] = []
            var values: [[Element]] = []
            for layer in 0..<layerCount {
                let kv = keyValue(layer)
                var k = [Element](repeating: zero, count: positionCount * width)
                var v = k
                kv.withUnsafeBufferPointer { src in
                    k.withUnsafeMutableBufferPointer { kd in
                        v.withUnsafeMutableBufferPointer { vd in
                            for row in 0..<positionCount {
                                copy(src.baseAddress! + row * 2 * width, kd.baseAddress! + row * width, width)
                                copy(src.baseAddress! + row * 2 * width + width, vd.baseAddress! + row * width, width)
                            }
                        }
                    }
                }
                keys.append(k)
                values.append(v)
            }
            return (keys, values)
        }
        if inHalf {
            let (keys, values) = split(UInt16(0)) { cf32_to_f16($0, $1, $2) }
            storage = .half(keys: keys, values: values)
        } else {
            let (keys, values) = split(Float(0)) { $1.update(from: $0, count: $2) }
            storage = .float(keys: keys, values: values)
        }
    }

    /// Bytes the keys and values hold.
    var byteCount: Int {
        switch storage {
        case .float(let keys, let values): 4 * (keys + values).reduce(0) { $0 + $1.count }
        case .half(let keys, let values): 2 * (keys + values).reduce(0) { $0 + $1.count }
        }
    }
}

/// Self-attention keys and values of the tokens decoded so far, one slot per
/// sequence (beam). All sequences hold the same number of tokens.
///
/// The prompt is decoded once, before the beams fan out; at the fan-out its
/// keys and values become a prefix shared by every beam instead of being
/// copied into each (five beams with a 224-token prompt held 27 MB of
/// identical copies). Beam slots hold only the positions after the prefix,
/// and grow on demand in steps of 32 positions.
/// - Shape: per layer, `prefixKeys`/`prefixValues` are `[prefixLength, width]`,
///   `keys`/`values` are `[sequenceCount, capacity, width]` for positions
///   `prefixLength..<length`.
struct SelfAttentionCache: Sendable {
    let width: Int
    let maximumCapacity: Int
    private(set) var capacity: Int
    private(set) var sequenceCount: Int
    var keys: [[Float]]
    var values: [[Float]]
    private(set) var prefixKeys: [[Float]]
    private(set) var prefixValues: [[Float]]
    /// Positions shared by all sequences (the prompt, after a fan-out).
    private(set) var prefixLength = 0
    /// Tokens cached per sequence, prefix included.
    var length = 0

    static let growthStep = 32

    init(layerCount: Int, width: Int, capacity: Int, sequenceCount: Int, initialCapacity: Int = 64) {
        self.width = width
        self.maximumCapacity = capacity
        self.capacity = min(capacity, initialCapacity)
        self.sequenceCount = sequenceCount
        let size = sequenceCount * self.capacity * width
        keys = Array(repeating: [Float](repeating: 0, count: size), count: layerCount)
        values = keys
        prefixKeys = Array(repeating: [], count: layerCount)
        prefixValues = prefixKeys
    }

    /// Makes room for `count` positions per sequence (prefix included).
    mutating func reserve(_ count: Int) {
        let needed = count - prefixLength
        guard needed > capacity else { return }
        precondition(count <= maximumCapacity, "decoder context overflow")
        var newCapacity = capacity
        while newCapacity < needed { newCapacity += Self.growthStep }
        newCapacity = min(newCapacity, maximumCapacity)
        relayout(sources: Array(0..<sequenceCount), capacity: newCapacity)
    }

    /// Rebuilds the cache so that new sequence `i` continues old sequence
    /// `sources[i]` (beam search keeps, drops and duplicates beams).
    mutating func reorder(_ sources: [Int]) {
        guard sources != Array(0..<sequenceCount) else { return }
        if sequenceCount == 1 && prefixLength == 0 && sources.allSatisfy({ $0 == 0 }) {
            return fanOut(to: sources.count)
        }
        guard sources.count == sequenceCount else { return relayout(sources: sources, capacity: capacity) }
        // Same beam count (every step of a beam search): copy only the slots
        // that change, in place. Rebuilding the whole cache copied up to
        // 55 MB per step and allocated as much.
        let changed = sources.indices.filter { sources[$0] != $0 }
        // Old sequences still needed after their own slot is overwritten.
        let stashed = Set(changed.map { sources[$0] }).filter { sources[$0] != $0 }.sorted()
        let used = (length - prefixLength) * width
        let row = capacity * width
        func permute(_ storage: inout [Float]) {
            storage.withUnsafeMutableBufferPointer { slots in
                let base = slots.baseAddress!
                var stash = [Float](repeating: 0, count: stashed.count * used)
                stash.withUnsafeMutableBufferPointer { copies in
                    for (k, sequence) in stashed.enumerated() {
                        (copies.baseAddress! + k * used).update(from: base + sequence * row, count: used)
                    }
                    for i in changed {
                        let source = stashed.firstIndex(of: sources[i]).map { UnsafePointer(copies.baseAddress! + $0 * used) }
                            ?? UnsafePointer(base + sources[i] * row)
                        (base + i * row).update(from: source, count: used)
                    }
                }
            }
        }
        for layer in keys.indices {
            permute(&keys[layer])
            permute(&values[layer])
        }
    }

    /// One sequence becomes `count`: its positions turn into the shared prefix.
    private mutating func fanOut(to count: Int) {
        let used = length * width
        let newCapacity = min(Self.growthStep, maximumCapacity)
        for layer in keys.indices {
            prefixKeys[layer] = Array(keys[layer][0..<used])
            prefixValues[layer] = Array(values[layer][0..<used])
            keys[layer] = [Float](repeating: 0, count: count * newCapacity * width)
            values[layer] = keys[layer]
        }
        prefixLength = length
        sequenceCount = count
        capacity = newCapacity
    }

    private mutating func relayout(sources: [Int], capacity newCapacity: Int) {
        let used = (length - prefixLength) * width
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
