// CMTime: a rational time value, as CoreMedia's C struct and its Swift overlay
// define it (API.md §2.12).

/// The numerator of a `CMTime`.
public typealias CMTimeValue = Int64
/// The denominator of a `CMTime` (units per second).
public typealias CMTimeScale = Int32
/// The epoch of a `CMTime`: distinguishes times on different timelines.
public typealias CMTimeEpoch = Int64

/// The largest timescale CoreMedia accepts.
public let kCMTimeMaxTimescale: CMTimeScale = 0x7fff_ffff

/// Flags describing the state of a `CMTime`.
public struct CMTimeFlags: OptionSet, Sendable, Hashable, Codable {
    /// The raw flag bits.
    public let rawValue: UInt32
    /// Creates flags from raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The time is valid; all other flags are meaningless without it.
    public static let valid = CMTimeFlags(rawValue: 1 << 0)
    /// The value was rounded when the time was computed.
    public static let hasBeenRounded = CMTimeFlags(rawValue: 1 << 1)
    /// The time is positive infinity.
    public static let positiveInfinity = CMTimeFlags(rawValue: 1 << 2)
    /// The time is negative infinity.
    public static let negativeInfinity = CMTimeFlags(rawValue: 1 << 3)
    /// The time is indefinite (unknown).
    public static let indefinite = CMTimeFlags(rawValue: 1 << 4)
    /// The flags that say the value field is implied (infinities, indefinite).
    public static let impliedValueFlagsMask: CMTimeFlags = [.positiveInfinity, .negativeInfinity, .indefinite]
}

/// A time value expressed as a rational number: `value / timescale` seconds.
///
/// CoreMedia's `CMTime` is a C struct; its zero-initialised form is the invalid
/// time. Compare special times with the predicates (`isValid`, `isIndefinite`,
/// …), not with `==`, as Apple's documentation advises.
/// - Note: On Linux this is a plain Swift struct with the same fields, flags
///   and semantics as CoreMedia's.
public struct CMTime: Sendable {
    /// The numerator of the time, in units of `1 / timescale` seconds.
    public var value: CMTimeValue
    /// The number of units per second.
    public var timescale: CMTimeScale
    /// The validity, rounding and infinity flags.
    public var flags: CMTimeFlags
    /// The timeline this time belongs to; usually 0.
    public var epoch: CMTimeEpoch

    /// Creates the all-zero time, which is the invalid time.
    public init() {
        value = 0
        timescale = 0
        flags = []
        epoch = 0
    }

    /// Creates a time from its four fields, unchanged.
    public init(value: CMTimeValue, timescale: CMTimeScale, flags: CMTimeFlags, epoch: CMTimeEpoch) {
        self.value = value
        self.timescale = timescale
        self.flags = flags
        self.epoch = epoch
    }

    /// Creates a valid time of `value / timescale` seconds (`CMTimeMake`).
    /// - Note: A non-positive timescale gives the invalid time.
    public init(value: CMTimeValue, timescale: CMTimeScale) {
        self = timescale > 0
            ? CMTime(value: value, timescale: timescale, flags: .valid, epoch: 0)
            : CMTime()
    }

    /// Creates the time nearest to `seconds` in `preferredTimescale` units
    /// (`CMTimeMakeWithSeconds`), rounding half away from zero.
    ///
    /// Sets `.hasBeenRounded` when the result is inexact. NaN gives the invalid
    /// time and infinities give `positiveInfinity` / `negativeInfinity`. If the
    /// value would overflow, the timescale is halved until it fits.
    public init(seconds: Double, preferredTimescale: CMTimeScale) {
        guard preferredTimescale > 0, !seconds.isNaN else { self = .invalid; return }
        if seconds.isInfinite { self = seconds > 0 ? .positiveInfinity : .negativeInfinity; return }
        var timescale = preferredTimescale
        while true {
            let exact = seconds * Double(timescale)
            let rounded = exact.rounded(.toNearestOrAwayFromZero)
            if let value = CMTimeValue(exactly: rounded), abs(rounded) < 9.2e18 {
                var flags: CMTimeFlags = .valid
                if rounded != exact { flags.insert(.hasBeenRounded) }
                self.init(value: value, timescale: timescale, flags: flags, epoch: 0)
                return
            }
            if timescale == 1 { self = seconds > 0 ? .positiveInfinity : .negativeInfinity; return }
            timescale /= 2
        }
    }

    /// The zero time: 0/1 s, valid.
    public static let zero = CMTime(value: 0, timescale: 1, flags: .valid, epoch: 0)
    /// The invalid time (all fields zero).
    public static let invalid = CMTime()
    /// The indefinite (unknown) time.
    public static let indefinite = CMTime(value: 0, timescale: 0, flags: [.valid, .indefinite], epoch: 0)
    /// Positive infinity.
    public static let positiveInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity], epoch: 0)
    /// Negative infinity.
    public static let negativeInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity], epoch: 0)

    /// Whether the time is valid (`CMTIME_IS_VALID`).
    public var isValid: Bool { flags.contains(.valid) }
    /// Whether the time is positive infinity (`CMTIME_IS_POSITIVEINFINITY`).
    public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }
    /// Whether the time is negative infinity (`CMTIME_IS_NEGATIVEINFINITY`).
    public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }
    /// Whether the time is indefinite (`CMTIME_IS_INDEFINITE`).
    public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }
    /// Whether the time is valid and finite (`CMTIME_IS_NUMERIC`).
    public var isNumeric: Bool { isValid && flags.isDisjoint(with: .impliedValueFlagsMask) }
    /// Whether the value was rounded (`CMTIME_HAS_BEEN_ROUNDED`).
    public var hasBeenRounded: Bool { isNumeric && flags.contains(.hasBeenRounded) }

    /// The time in seconds (`CMTimeGetSeconds`): NaN for invalid or indefinite
    /// times, ±infinity for the infinities; the epoch is ignored.
    public var seconds: Double {
        if !isValid || isIndefinite { return .nan }
        if isPositiveInfinity { return .infinity }
        if isNegativeInfinity { return -.infinity }
        return Double(value) / Double(timescale)
    }

    /// The same time expressed in `newTimescale` units (`CMTimeConvertScale`).
    ///
    /// Non-numeric times are returned unchanged. Sets `.hasBeenRounded` when
    /// rounding was needed; a result outside `Int64` becomes ±infinity.
    public func convertScale(_ newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
        guard isNumeric else { return self }
        guard newTimescale > 0 else { return .invalid }
        if newTimescale == timescale { return self }
        let numerator = Int128(value) * Int128(newTimescale)
        let (scaled, inexact) = method.divide(numerator, by: Int128(timescale),
                                              increasingPrecision: newTimescale > timescale)
        guard let newValue = CMTimeValue(exactly: scaled) else {
            return scaled > 0 ? .positiveInfinity : .negativeInfinity
        }
        var newFlags = flags
        if inexact { newFlags.insert(.hasBeenRounded) }
        return CMTime(value: newValue, timescale: newTimescale, flags: newFlags, epoch: epoch)
    }
}
