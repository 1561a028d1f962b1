/// A seeded, deterministic byte mutator in the spirit of libFuzzer's and
/// AFL's havoc stage: bit flips, byte sets, inserts, deletes, duplicated
/// ranges, splices from another input, boundary integers at random offsets,
/// truncation, and (for text formats) numbers replaced by extreme ones.
///
/// Same seed, same inputs, same mutants: a finding is reproduced by its
/// target name, seed and iteration alone. Mutation offsets favour the
/// "hot" offsets a seed names (headers of a model.bin's variables) and the
/// first bytes of the input, where the parsers' sizes and counts live.
public struct Mutator {
    /// The generator every choice comes from.
    public var random: FuzzRandom
    /// Mutants never grow past this many bytes.
    public let maximumByteCount: Int

    /// A mutator whose choices all follow from `seed`.
    public init(seed: UInt64, maximumByteCount: Int = 1 << 20) {
        random = FuzzRandom(seed: seed)
        self.maximumByteCount = maximumByteCount
    }

    /// Integers at the edges of every size and sign, as parsers mishandle them.
    static let boundaryIntegers: [UInt64] = [
        0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256, 0x3FF, 0x400, 0x7FFF, 0x8000, 0xFFFF,
        0x1_0000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF, 0x1_0000_0000,
        0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000, 0xFFFF_FFFF_FFFF_FFFF,
    ]

    /// Number spellings that break naive numeric code.
    static let extremeNumbers: [String] = [
        "-1", "0", "-0", "1e308", "-1e308", "1e-320", "NaN", "Infinity", "99999999999999999999",
        "4294967296", "2147483648", "-2147483649", "9223372036854775807", "9223372036854775808", "1.5", "0x10", "",
    ]

    /// A mutant of `input`: one to four stacked mutations.
    /// - Parameters:
    ///   - other: an input to splice from (another seed or a pooled mutant).
    ///   - hotOffsets: offsets worth aiming at (structure headers).
    public mutating func mutate(_ input: [UInt8], splicing other: [UInt8], hotOffsets: [Int] = []) -> [UInt8] {
        var data = input
        let steps = Int.random(in: 1...4, using: &random)
        for _ in 0..<steps {
            mutateOnce(&data, other: other, hotOffsets: hotOffsets)
        }
        if data.count > maximumByteCount { data.removeLast(data.count - maximumByteCount) }
        return data
    }

    private mutating func mutateOnce(_ data: inout [UInt8], other: [UInt8], hotOffsets: [Int]) {
        if data.isEmpty {
            data = Array(other.prefix(Int.random(in: 0...min(64, other.count), using: &random)))
            return
        }
        switch Int.random(in: 0..<10, using: &random) {
        case 0: // flip one bit
            let at = offset(in: data.count, hot: hotOffsets)
            data[at] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        case 1: // set a byte
            data[offset(in: data.count, hot: hotOffsets)] = UInt8.random(in: 0...255, using: &random)
        case 2: // insert bytes (random, or one repeated)
            let at = offset(in: data.count + 1, hot: hotOffsets)
            let count = Int.random(in: 1...16, using: &random)
            let repeated = UInt8.random(in: 0...255, using: &random)
            let bytes = Bool.random(using: &random)
                ? [UInt8](repeating: repeated, count: count)
                : (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            data.insert(contentsOf: bytes, at: at)
        case 3: // delete a range
            let at = offset(in: data.count, hot: hotOffsets)
            let count = min(data.count - at, rangeLength())
            data.removeSubrange(at..<(at + count))
        case 4: // duplicate a range elsewhere
            let from = offset(in: data.count, hot: [])
            let count = min(data.count - from, rangeLength())
            let to = offset(in: data.count + 1, hot: hotOffsets)
            data.insert(contentsOf: Array(data[from..<(from + count)]), at: to)
        case 5: // splice: our head, the other's tail
            guard !other.isEmpty else { return }
            let cut = offset(in: data.count, hot: hotOffsets)
            let otherCut = Int.random(in: 0..<other.count, using: &random)
            data = Array(data[..<cut]) + Array(other[otherCut...])
        case 6, 7: // a boundary integer, little- or big-endian, 1 to 8 bytes
            let widths = [1, 2, 4, 8]
            let width = widths[Int.random(in: 0..<widths.count, using: &random)]
            var value = Self.boundaryIntegers[Int.random(in: 0..<Self.boundaryIntegers.count, using: &random)]
            if Bool.random(using: &random) { value = value &+ UInt64(bitPattern: Int64(Int.random(in: -2...2, using: &random))) }
            let at = offset(in: data.count, hot: hotOffsets)
            let bigEndian = Int.random(in: 0..<4, using: &random) == 0
            for index in 0..<width where at + index < data.count {
                let shift = UInt64(8 * (bigEndian ? width - 1 - index : index))
                data[at + index] = UInt8(truncatingIfNeeded: value >> shift)
            }
        case 8: // truncate
            data.removeLast(data.count - offset(in: data.count, hot: hotOffsets))
        default: // replace a run of ASCII digits with an extreme number
            replaceNumber(&data)
        }
    }

    /// A random offset below `count`: near a hot offset a third of the time,
    /// within the first 64 bytes a sixth, anywhere otherwise.
    private mutating func offset(in count: Int, hot: [Int]) -> Int {
        guard count > 1 else { return 0 }
        let roll = Int.random(in: 0..<6, using: &random)
        if roll < 2, !hot.isEmpty {
            let base = hot[Int.random(in: 0..<hot.count, using: &random)] + Int.random(in: 0..<16, using: &random)
            return min(max(0, base), count - 1)
        }
        if roll == 2 { return Int.random(in: 0..<min(64, count), using: &random) }
        return Int.random(in: 0..<count, using: &random)
    }

    /// Mostly short ranges, sometimes long ones.
    private mutating func rangeLength() -> Int {
        Int.random(in: 0..<8, using: &random) == 0 ? Int.random(in: 1...4096, using: &random)
            : Int.random(in: 1...16, using: &random)
    }

    private mutating func replaceNumber(_ data: inout [UInt8]) {
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        let starts = data.indices.filter { isDigit(data[$0]) && ($0 == 0 || !isDigit(data[$0 - 1])) }
        let number = Array(Self.extremeNumbers[Int.random(in: 0..<Self.extremeNumbers.count, using: &random)].utf8)
        guard !starts.isEmpty else {
            data.insert(contentsOf: number, at: Int.random(in: 0...data.count, using: &random))
            return
        }
        let start = starts[Int.random(in: 0..<starts.count, using: &random)]
        var end = start
        while end < data.count, isDigit(data[end]) || data[end] == UInt8(ascii: ".") { end += 1 }
        data.replaceSubrange(start..<end, with: number)
    }
}

/// SplitMix64: a small, fast, well-mixed generator with a 64-bit state,
/// so a run is fixed by one seed.
public struct FuzzRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator at `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
