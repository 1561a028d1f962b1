// CMTime ordering (CMTimeCompare) and the Equatable/Comparable/Hashable
// conformances built on it, as the Swift overlay defines them.

extension CMTime {
    /// Where a time sits in CoreMedia's total order of kinds:
    /// −∞ < finite < indefinite < +∞ < invalid.
    private var orderRank: Int {
        if !isValid { return 4 }
        if isPositiveInfinity { return 3 }
        if isIndefinite { return 2 }
        if isNegativeInfinity { return 0 }
        return 1
    }

    /// Compares two times: −1, 0 or 1 (`CMTimeCompare`).
    ///
    /// Invalid times equal each other and exceed everything; then +∞, then
    /// indefinite; −∞ is below everything. Finite times compare by epoch
    /// first, then by exact rational value, whatever their timescales.
    static func compare(_ lhs: CMTime, _ rhs: CMTime) -> Int32 {
        let (lhsRank, rhsRank) = (lhs.orderRank, rhs.orderRank)
        if lhsRank != rhsRank { return lhsRank < rhsRank ? -1 : 1 }
        guard lhsRank == 1 else { return 0 }
        if lhs.epoch != rhs.epoch { return lhs.epoch < rhs.epoch ? -1 : 1 }
        let left = Int128(lhs.value) * Int128(rhs.timescale)
        let right = Int128(rhs.value) * Int128(lhs.timescale)
        return left == right ? 0 : (left < right ? -1 : 1)
    }
}

extension CMTime: Equatable {
    /// Whether two times are equal by `CMTimeCompare`, so `1/2 == 500/1000`.
    public static func == (lhs: CMTime, rhs: CMTime) -> Bool { compare(lhs, rhs) == 0 }
}

extension CMTime: Comparable {
    /// Whether `lhs` comes before `rhs` by `CMTimeCompare`.
    public static func < (lhs: CMTime, rhs: CMTime) -> Bool { compare(lhs, rhs) < 0 }
}

extension CMTime: Hashable {
    /// Hashes the time consistently with `==`: finite times by their reduced
    /// fraction and epoch, special times by their kind.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(orderRank)
        guard orderRank == 1 else { return }
        let divisor = greatestCommonDivisor(value, Int64(timescale))
        hasher.combine(divisor == 0 ? value : value / divisor)
        hasher.combine(divisor == 0 ? Int64(timescale) : Int64(timescale) / divisor)
        hasher.combine(epoch)
    }
}

extension CMTime: Codable {
    private enum CodingKeys: String, CodingKey { case value, timescale, flags, epoch }

    /// Decodes a time from its `value`, `timescale`, `flags` and `epoch` keys.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(value: try container.decode(CMTimeValue.self, forKey: .value),
                  timescale: try container.decode(CMTimeScale.self, forKey: .timescale),
                  flags: CMTimeFlags(rawValue: try container.decode(UInt32.self, forKey: .flags)),
                  epoch: try container.decode(CMTimeEpoch.self, forKey: .epoch))
    }

    /// Encodes the time as its `value`, `timescale`, `flags` and `epoch` keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try container.encode(timescale, forKey: .timescale)
        try container.encode(flags.rawValue, forKey: .flags)
        try container.encode(epoch, forKey: .epoch)
    }
}

extension CMTime: CustomStringConvertible {
    /// A readable form such as `CMTime(1/2 s)` or `CMTime(+infinity)`.
    public var description: String {
        if !isValid { return "CMTime(invalid)" }
        if isIndefinite { return "CMTime(indefinite)" }
        if isPositiveInfinity { return "CMTime(+infinity)" }
        if isNegativeInfinity { return "CMTime(-infinity)" }
        let epochText = epoch == 0 ? "" : ", epoch \(epoch)"
        return "CMTime(\(value)/\(timescale) s = \(seconds)\(epochText))"
    }
}
