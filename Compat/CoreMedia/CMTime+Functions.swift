// The C-style CMTime functions, constants and predicates that Apple sample code
// calls, each a thin spelling of the Swift members.

/// The zero time (`kCMTimeZero`).
public let kCMTimeZero = CMTime.zero
/// The invalid time (`kCMTimeInvalid`).
public let kCMTimeInvalid = CMTime.invalid
/// The indefinite time (`kCMTimeIndefinite`).
public let kCMTimeIndefinite = CMTime.indefinite
/// Positive infinity (`kCMTimePositiveInfinity`).
public let kCMTimePositiveInfinity = CMTime.positiveInfinity
/// Negative infinity (`kCMTimeNegativeInfinity`).
public let kCMTimeNegativeInfinity = CMTime.negativeInfinity

/// Makes a valid time of `value / timescale` seconds.
public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime {
    CMTime(value: value, timescale: timescale)
}

/// Makes a valid time with an explicit epoch.
public func CMTimeMakeWithEpoch(value: Int64, timescale: Int32, epoch: Int64) -> CMTime {
    var time = CMTime(value: value, timescale: timescale)
    if time.isValid { time.epoch = epoch }
    return time
}

/// Makes the time nearest to `seconds` in `preferredTimescale` units.
public func CMTimeMakeWithSeconds(_ seconds: Float64, preferredTimescale: Int32) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}

/// The time in seconds: NaN for invalid or indefinite, ±infinity for infinities.
public func CMTimeGetSeconds(_ time: CMTime) -> Float64 { time.seconds }

/// Adds two times; see `+` for the rules on special times and timescales.
public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime { lhs + rhs }

/// Subtracts `rhs` from `lhs`.
public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime { lhs - rhs }

/// Multiplies a time by an integer, keeping its timescale unless the value
/// would overflow (then the timescale is halved, with rounding).
public func CMTimeMultiply(_ time: CMTime, multiplier: Int32) -> CMTime {
    CMTime.scaled(time, by: Int128(multiplier), over: 1)
}

/// Multiplies a time by a floating-point factor, rounding half away from zero.
public func CMTimeMultiplyByFloat64(_ time: CMTime, multiplier: Float64) -> CMTime {
    CMTime.scaled(time, by: multiplier)
}

/// Multiplies a time by `multiplier / divisor`; a zero divisor gives invalid.
public func CMTimeMultiplyByRatio(_ time: CMTime, multiplier: Int32, divisor: Int32) -> CMTime {
    CMTime.scaled(time, by: Int128(multiplier), over: Int128(divisor))
}

/// The absolute value of a time.
public func CMTimeAbsoluteValue(_ time: CMTime) -> CMTime { time.absoluteValue }

/// Converts a time to a new timescale with the given rounding.
public func CMTimeConvertScale(_ time: CMTime, timescale newTimescale: Int32,
                               method: CMTimeRoundingMethod) -> CMTime {
    time.convertScale(newTimescale, method: method)
}

/// Compares two times: −1, 0 or 1 in CoreMedia's total order
/// (−∞ < finite < indefinite < +∞ < invalid).
public func CMTimeCompare(_ time1: CMTime, _ time2: CMTime) -> Int32 { CMTime.compare(time1, time2) }

/// The lesser of two times by `CMTimeCompare`.
public func CMTimeMinimum(_ time1: CMTime, _ time2: CMTime) -> CMTime {
    CMTime.compare(time1, time2) <= 0 ? time1 : time2
}

/// The greater of two times by `CMTimeCompare`.
public func CMTimeMaximum(_ time1: CMTime, _ time2: CMTime) -> CMTime {
    CMTime.compare(time1, time2) >= 0 ? time1 : time2
}

/// Whether the time is valid.
public func CMTIME_IS_VALID(_ time: CMTime) -> Bool { time.isValid }
/// Whether the time is invalid.
public func CMTIME_IS_INVALID(_ time: CMTime) -> Bool { !time.isValid }
/// Whether the time is valid and finite.
public func CMTIME_IS_NUMERIC(_ time: CMTime) -> Bool { time.isNumeric }
/// Whether the time is indefinite.
public func CMTIME_IS_INDEFINITE(_ time: CMTime) -> Bool { time.isIndefinite }
/// Whether the time is positive infinity.
public func CMTIME_IS_POSITIVEINFINITY(_ time: CMTime) -> Bool { time.isPositiveInfinity }
/// Whether the time is negative infinity.
public func CMTIME_IS_NEGATIVEINFINITY(_ time: CMTime) -> Bool { time.isNegativeInfinity }
/// Whether the time's value was rounded.
public func CMTIME_HAS_BEEN_ROUNDED(_ time: CMTime) -> Bool { time.hasBeenRounded }
