import CFloat16
import CSpeechKernels

/// Cross-attention keys and values over one window's audio features,
/// computed once per window and shared by every beam.
///
/// Kept in half precision unless the model computes in `float32`: for
/// whisper-base that is 18 MB a window instead of 37 MB (the largest
/// allocation of a decode after the weights, and one per chunk in batched
/// decoding); whisper.cpp keeps this cache in half as well. `int8-mixed`
/// keeps them in int8 (9 MB): every decoder step reads the whole cache of
/// each window it decodes (147 MB a beam-5 step of eight windows in half),
/// so the cache's size is the cross-attention's time. Keys then take one
/// scale per channel and values one per position and head: a key channel
/// keeps its range over the positions (a few channels run large at every
/// position, and a scale per position spends its steps on them), while
/// values vary by position. Scales per position for keys as well cost the
/// corpus 2–3 words (13.95% English against 13.47–13.59%, 2026-12-06).
/// Keys in int8 are packed per head as the integer product kernels read
/// weights, so that a step's scores are one integer product of its
/// quantized queries with them (`AttentionHead.StoredRows`); values are
/// summed in float32.
struct CrossAttentionCache: Sendable {
    /// How keys or values are stored.
    enum Precision: Sendable {
        case float, half
        /// One scale per position and head.
        case int8PerPosition
        /// One scale per channel over every position, packed for the
        /// integer product kernels (keys: `Rows.packed`).
        case int8PerChannel
    }

    /// One layer's keys or values, `[positionCount, width]`.
    enum Rows: Sendable {
        case float([Float])
        /// IEEE binary16 bit patterns.
        case half([UInt16])
        /// Each value a byte times its position's scale (the largest
        /// magnitude in its head's run / 127): scales `[headCount, positionCount]`,
        /// each head's run contiguous.
        case int8([Int8], scales: [Float])
        /// Each value a byte times its channel's scale (the channel's largest
        /// magnitude / 127), each head's `[positionCount, headWidth]` bytes
        /// packed as `sk_pack_rows` packs weights (`sk_padded_out(positionCount)`
        /// rows a head), with each row's byte sum (`[headCount, padded]`) and a
        /// unit scale per row for the product kernels.
        case packed(Packed)

        struct Packed: Sendable {
            var bytes: [Int8]
            /// `[width]`.
            var scales: [Float]
            var sums: [Int32]
            var ones: [Float]
            var paddedCount: Int
        }

        var byteCount: Int {
            switch self {
            case .float(let values): 4 * values.count
            case .half(let bits): 2 * bits.count
            case .int8(let bytes, let scales): bytes.count + 4 * scales.count
            case .packed(let p): p.bytes.count + 4 * (p.scales.count + p.sums.count + p.ones.count)
            }
        }

        /// Where the rows' arrays are, for `part` (valid inside `withBases`).
        struct Bases {
            var bytes: UnsafeRawPointer
            var scales: UnsafePointer<Float>? = nil
            var sums: UnsafePointer<Int32>? = nil
            var ones: UnsafePointer<Float>? = nil
        }

        func withBases<Result>(_ body: (Bases) -> Result) -> Result {
            switch self {
            case .float(let values): values.withUnsafeBytes { body(Bases(bytes: $0.baseAddress!)) }
            case .half(let bits): bits.withUnsafeBytes { body(Bases(bytes: $0.baseAddress!)) }
            case .int8(let bytes, let scales):
                bytes.withUnsafeBytes { b in
                    scales.withUnsafeBufferPointer { body(Bases(bytes: b.baseAddress!, scales: $0.baseAddress!)) }
                }
            case .packed(let p):
                p.bytes.withUnsafeBytes { b in
                    p.scales.withUnsafeBufferPointer { s in
                        p.sums.withUnsafeBufferPointer { sums in
                            p.ones.withUnsafeBufferPointer {
                                body(Bases(bytes: b.baseAddress!, scales: s.baseAddress!, sums: sums.baseAddress!,
                                           ones: $0.baseAddress!))
                            }
                        }
                    }
                }
            }
        }

        /// Head `head`'s part of the rows at `bases` (from `withBases`).
        func part(head: Int, _ bases: Bases, headWidth: Int, positionCount: Int) -> AttentionHead.StoredRows.Part {
            switch self {
            case .float: return .init(element: SK_ELEMENT_FLOAT, base: bases.bytes + 4 * head * headWidth)
            case .half: return .init(element: SK_ELEMENT_HALF, base: bases.bytes + 2 * head * headWidth)
            case .int8:
                return .init(element: SK_ELEMENT_INT8, base: bases.bytes + head * headWidth,
                             scales: .rows(bases.scales! + head * positionCount))
            case .packed(let p):
                let packed = AttentionHead.StoredRows.Packed(channels: bases.scales! + head * headWidth,
                                                             sums: bases.sums! + head * p.paddedCount, ones: bases.ones!)
                return .init(element: SK_ELEMENT_INT8, base: bases.bytes + head * p.paddedCount * headWidth,
                             scales: .packed(packed))
            }
        }
    }

    /// Per layer.
    let keys: [Rows]
    let values: [Rows]
    let positionCount: Int
    let width: Int
    let headWidth: Int

    /// Splits each layer's fused `[positionCount, 2 * width]` key-value
    /// projection (`keyValue(layer)`, asked for one layer at a time so that
    /// only one float projection is held beside the cache) into keys and
    /// values, stored in `precision`.
    init(layerCount: Int, positionCount: Int, width: Int, headWidth: Int,
         precision: (keys: Precision, values: Precision), keyValue: (Int) -> [Float]) {
        precondition(precision.values != .int8PerChannel, "values are summed from rows: int8 values take a scale per position")
        self.positionCount = positionCount
        self.width = width
        self.headWidth = headWidth
        var keys: [Rows] = [], values: [Rows] = []
        for layer in 0..<layerCount {
            let kv = keyValue(layer)
            keys.append(Self.rows(of: kv, column: 0, positionCount: positionCount, width: width, headWidth: headWidth,
                                  precision: precision.keys))
            values.append(Self.rows(of: kv, column: width, positionCount: positionCount, width: width,
                                    headWidth: headWidth, precision: precision.values))
        }
        self.keys = keys
        self.values = values
    }

    /// Columns `column ..< column + width` of every position of `keyValue`, stored in `precision`.
    private static func rows(of keyValue: [Float], column: Int, positionCount: Int, width: Int, headWidth: Int,
                             precision: Precision) -> Rows {
        /// Each position's columns through `store` (source, destination).
        func map<Element>(_ zero: Element, _ store: (UnsafePointer<Float>, UnsafeMutablePointer<Element>) -> Void)
            -> [Element] {
            var rows = [Element](repeating: zero, count: positionCount * width)
            keyValue.withUnsafeBufferPointer { src in
                rows.withUnsafeMutableBufferPointer { dst in
                    for position in 0..<positionCount {
                        store(src.baseAddress! + position * 2 * width + column, dst.baseAddress! + position * width)
                    }
                }
            }
            return rows
        }
        switch precision {
        case .float:
            return .float(map(Float(0)) { $1.update(from: $0, count: width) })
        case .half:
            return .half(map(UInt16(0)) { cf32_to_f16($0, $1, width) })
        case .int8PerPosition:
            // Each position's `headCount` runs of `headWidth` as rows of their own
            // (the kernel pads rows to 4 bytes: none for whisper's 64).
            precondition(headWidth % 4 == 0 && width % headWidth == 0, "int8 rows need heads of a multiple of 4")
            let headCount = width / headWidth
            let path = sk_path_supported(SK_PATH_AVX2) != 0 ? SK_PATH_AVX2 : SK_PATH_SCALAR
            var scales = [Float](repeating: 0, count: positionCount * headCount)
            let bytes = scales.withUnsafeMutableBufferPointer { scale in
                var position = 0
                return map(Int8(0)) { src, dst in
                    sk_quantize_rows(path, src, Int32(headCount), Int32(headWidth), dst,
                                     scale.baseAddress! + position * headCount)
                    position += 1
                }
            }
            let byHead = (0..<headCount).flatMap { h in (0..<positionCount).map { scales[$0 * headCount + h] } }
            return .int8(bytes, scales: byHead)
        case .int8PerChannel:
            return .packed(packedPerChannel(keyValue, column: column, positionCount: positionCount, width: width,
                                            headWidth: headWidth))
        }
    }

    /// Columns `column ..< column + width` of `keyValue` in int8 with a
    /// scale per channel, each head packed for the product kernels.
    static func packedPerChannel(_ keyValue: [Float], column: Int, positionCount: Int, width: Int,
                                 headWidth: Int) -> Rows.Packed {
        precondition(headWidth % 4 == 0 && width % headWidth == 0, "packed rows need heads of a multiple of 4")
        var largest = [Float](repeating: 0, count: width)
        keyValue.withUnsafeBufferPointer { src in
            largest.withUnsafeMutableBufferPointer { largest in
                for position in 0..<positionCount {
                    let row = src.baseAddress! + position * 2 * width + column
                    for c in 0..<width { largest[c] = max(largest[c], abs(row[c])) }
                }
            }
        }
        let scales = largest.map { $0 > 0 ? $0 / 127 : 1 }
        let inverses = largest.map { $0 > 0 ? 127 / $0 : 0 }
        let padded = Int(sk_padded_out(Int32(positionCount)))
        var bytes = [Int8](repeating: 0, count: width / headWidth * padded * headWidth)
        var sums = [Int32](repeating: 0, count: width / headWidth * padded)
        keyValue.withUnsafeBufferPointer { src in
            inverses.withUnsafeBufferPointer { inverse in
                bytes.withUnsafeMutableBufferPointer { packed in
                    sums.withUnsafeMutableBufferPointer { sum in
                        for head in 0..<(width / headWidth) {
                            sk_pack_rows_by_column(src.baseAddress! + column + head * headWidth, Int32(2 * width),
                                                   Int32(positionCount), Int32(headWidth),
                                                   inverse.baseAddress! + head * headWidth,
                                                   packed.baseAddress! + head * padded * headWidth,
                                                   sum.baseAddress! + head * padded)
                        }
                    }
                }
            }
        }
        return .init(bytes: bytes, scales: scales, sums: sums, ones: [Float](repeating: 1, count: padded),
                     paddedCount: padded)
    }

    /// Calls `body` with each head's rows of `layer` as the attention kernels read them.
    func withRows<Result>(layer: Int, _ body: (_ rowsOfHead: (Int) -> AttentionHead.StoredRows) -> Result) -> Result {
        let (keys, values) = (self.keys[layer], self.values[layer])
        let (headWidth, positionCount, width) = (headWidth, positionCount, width)
        return keys.withBases { keyBases in
            values.withBases { valueBases in
                body { h in
                    AttentionHead.StoredRows(
                        keys: keys.part(head: h, keyBases, headWidth: headWidth, positionCount: positionCount),
                        values: values.part(head: h, valueBases, headWidth: headWidth, positionCount: positionCount),
                        stride: width, count: positionCount)
                }
            }
        }
    }

    /// Bytes the keys, values and scales hold.
    var byteCount: Int { (keys + values).reduce(0) { $0 + $1.byteCount } }
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
