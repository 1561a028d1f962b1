// CMTime arithmetic: CMTimeAdd, CMTimeSubtract and the multiplications, with
// CoreMedia's rules for special times and mixed timescales.

extension CMTime {
    /// The sign-aware classification used by the arithmetic rules.
    private enum Kind { case invalid, indefinite, positiveInfinity, negativeInfinity, numeric }

    private var kind: Kind {
        if !isValid { return .invalid }
        if isIndefinite { return .indefinite }
        if isPositiveInfinity { return .positiveInfinity }
        if isNegativeInfinity { return .negativeInfinity }
        return .numeric
    }

    /// Adds or subtracts two times (`subtract` negates `rhs`).
    ///
    /// Rules: anything with an invalid operand, mixed epochs or `+∞ + −∞` is
    /// invalid; then indefinite wins; then an infinity wins. Finite times use
    /// the least common multiple of the timescales when it fits in `Int32`,
    /// otherwise the larger timescale with rounding.
    static func sum(_ lhs: CMTime, _ rhs: CMTime, subtract: Bool) -> CMTime {
        var rhsKind = rhs.kind
        if subtract {
            if rhsKind == .positiveInfinity { rhsKind = .negativeInfinity }
            else if rhsKind == .negativeInfinity { rhsKind = .positiveInfinity }
        }
        switch (lhs.kind, rhsKind) {
        case (.invalid, _), (_, .invalid): return .invalid
        case (.indefinite, _), (_, .indefinite): return .indefinite
        case (.positiveInfinity, .negativeInfinity), (.negativeInfinity, .positiveInfinity): return .invalid
        case (.positiveInfinity, _), (_, .positiveInfinity): return .positiveInfinity
        case (.negativeInfinity, _), (_, .negativeInfinity): return .negativeInfinity
        case (.numeric, .numeric): break
        }
        guard lhs.epoch == rhs.epoch else { return .invalid }
        let rounded = lhs.flags.contains(.hasBeenRounded) || rhs.flags.contains(.hasBeenRounded)
        let sign: Int128 = subtract ? -1 : 1
        if lhs.timescale == rhs.timescale {
            let numerator = Int128(lhs.value) + sign * Int128(rhs.value)
            return fit(numerator, over: Int128(lhs.timescale), preferredTimescale: lhs.timescale,
                       rounded: rounded, epoch: lhs.epoch)
        }
        let numerator = Int128(lhs.value) * Int128(rhs.timescale) + sign * Int128(rhs.value) * Int128(lhs.timescale)
        let denominator = Int128(lhs.timescale) * Int128(rhs.timescale)
        let lcm = denominator / Int128(greatestCommonDivisor(Int64(lhs.timescale), Int64(rhs.timescale)))
        let timescale = lcm <= Int128(kCMTimeMaxTimescale) ? CMTimeScale(lcm) : max(lhs.timescale, rhs.timescale)
        return fit(numerator, over: denominator, preferredTimescale: timescale, rounded: rounded, epoch: lhs.epoch)
    }

    /// The time `numerator / denominator` seconds in `preferredTimescale` units,
    /// halving the timescale while the value overflows `Int64` (±∞ if it never fits).
    static func fit(_ numerator: Int128, over denominator: Int128, preferredTimescale: CMTimeScale,
                    rounded: Bool, epoch: CMTimeEpoch) -> CMTime {
        var timescale = preferredTimescale
        while true {
            let (value, inexact) = CMTimeRoundingMethod.roundHalfAwayFromZero
                .divide(numerator * Int128(timescale), by: denominator, increasingPrecision: false)
            if let fitted = CMTimeValue(exactly: value) {
                var flags: CMTimeFlags = .valid
                if rounded || inexact { flags.insert(.hasBeenRounded) }
                return CMTime(value: fitted, timescale: timescale, flags: flags, epoch: epoch)
            }
            if timescale <= 1 { return numerator > 0 ? .positiveInfinity : .negativeInfinity }
            timescale /= 2
        }
    }

    /// `time × multiplier / divisor`, keeping the timescale where possible.
    static func scaled(_ time: CMTime, by multiplier: Int128, over divisor: Int128) -> CMTime {
        guard divisor != 0 else { return .invalid }
        let negative = (multiplier < 0) != (divisor < 0)
        switch time.kind {
        case .invalid: return .invalid
        case .indefinite: return .indefinite
        case .positiveInfinity, .negativeInfinity:
            if multiplier == 0 { return .invalid }
            return (time.kind == .positiveInfinity) != negative ? .positiveInfinity : .negativeInfinity
        case .numeric:
            let sign: Int128 = divisor < 0 ? -1 : 1
            return fit(Int128(time.value) * multiplier * sign, over: Int128(time.timescale) * divisor * sign,
                       preferredTimescale: time.timescale, rounded: time.flags.contains(.hasBeenRounded),
                       epoch: time.epoch)
        }
    }

    /// `time × multiplier` for a floating-point multiplier, keeping the timescale
    /// where possible (`CMTimeMultiplyByFloat64`).
    static func scaled(_ time: CMTime, by multiplier: Double) -> CMTime {
        guard multiplier.isFinite else { return .invalid }
        switch time.kind {
        case .invalid: return .invalid
        case .indefinite: return .indefinite
        case .positiveInfinity, .negativeInfinity:
            if multiplier == 0 { return .invalid }
            return (time.kind == .positiveInfinity) == (multiplier > 0) ? .positiveInfinity : .negativeInfinity
        case .numeric:
            var timescale = time.timescale
            var exact = Double(time.value) * multiplier
            while true {
                let rounded = exact.rounded(.toNearestOrAwayFromZero)
                if abs(rounded) < 9.2e18, let value = CMTimeValue(exactly: rounded) {
                    var flags: CMTimeFlags = .valid
                    if rounded != exact || time.flags.contains(.hasBeenRounded) { flags.insert(.hasBeenRounded) }
                    return CMTime(value: value, timescale: timescale, flags: flags, epoch: time.epoch)
                }
                if timescale <= 1 { return exact > 0 ? .positiveInfinity : .negativeInfinity }
                exact *= Double(timescale / 2) / Double(timescale)
                timescale /= 2
            }
        }
    }

    /// The absolute value of a time; negative infinity becomes positive infinity.
    var absoluteValue: CMTime {
        switch kind {
        case .negativeInfinity: return .positiveInfinity
        case .numeric where value < 0:
            if value == .min { return CMTime.fit(-Int128(value), over: Int128(timescale),
                                                 preferredTimescale: timescale, rounded: hasBeenRounded, epoch: epoch) }
            var result = self
            result.value = -value
            return result
        default: return self
        }
    }
}

/// Adds two times (`CMTimeAdd`).
public func + (addend1: CMTime, addend2: CMTime) -> CMTime { CMTime.sum(addend1, addend2, subtract: false) }

/// Subtracts one time from another (`CMTimeSubtract`).
public func - (minuend: CMTime, subtrahend: CMTime) -> CMTime { CMTime.sum(minuend, subtrahend, subtract: true) }

/// Adds a time in place.
public func += (lhs: inout CMTime, rhs: CMTime) { lhs = lhs + rhs }

/// Subtracts a time in place.
public func -= (lhs: inout CMTime, rhs: CMTime) { lhs = lhs - rhs }

/// Euclid's greatest common divisor of two non-negative integers.
func greatestCommonDivisor(_ a: Int64, _ b: Int64) -> Int64 {
    var (x, y) = (a.magnitude, b.magnitude)
    while y != 0 { (x, y) = (y, x % y) }
    return Int64(x)
}
