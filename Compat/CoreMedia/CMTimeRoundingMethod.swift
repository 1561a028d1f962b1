// CMTimeRoundingMethod: how CoreMedia rounds when a time changes timescale.

/// The rounding method used when a time's value must be recomputed for a new
/// timescale.
///
/// Raw values follow CoreMedia's `kCMTimeRoundingMethod_*` constants.
public enum CMTimeRoundingMethod: UInt32, Sendable, Hashable {
    /// Rounds to the nearest value; halves go away from zero.
    case roundHalfAwayFromZero = 1
    /// Rounds toward zero.
    case roundTowardZero = 2
    /// Rounds away from zero.
    case roundAwayFromZero = 3
    /// Toward zero when losing precision, away from zero when gaining it; never
    /// rounds a negative time up to zero.
    case quickTime = 4
    /// Rounds toward positive infinity.
    case roundTowardPositiveInfinity = 5
    /// Rounds toward negative infinity.
    case roundTowardNegativeInfinity = 6

    /// The default method, `.roundHalfAwayFromZero`.
    public static let `default` = CMTimeRoundingMethod.roundHalfAwayFromZero

    /// Divides `numerator` by a positive `denominator`, rounding by this
    /// method; `inexact` says whether rounding happened.
    func divide(_ numerator: Int128, by denominator: Int128,
                increasingPrecision: Bool) -> (quotient: Int128, inexact: Bool) {
        precondition(denominator > 0, "CMTime rounding needs a positive denominator")
        let quotient = numerator / denominator
        let remainder = numerator % denominator
        guard remainder != 0 else { return (quotient, false) }
        let awayStep: Int128 = numerator < 0 ? -1 : 1
        switch self {
        case .roundHalfAwayFromZero:
            let twiceRemainder = remainder.magnitude * 2
            return (twiceRemainder >= denominator.magnitude ? quotient + awayStep : quotient, true)
        case .roundTowardZero:
            return (quotient, true)
        case .roundAwayFromZero:
            return (quotient + awayStep, true)
        case .quickTime:
            if increasingPrecision { return (quotient + awayStep, true) }
            // Never round a negative time up to zero: keep -1/newTimescale.
            if numerator < 0 && quotient == 0 { return (-1, true) }
            return (quotient, true)
        case .roundTowardPositiveInfinity:
            return (numerator > 0 ? quotient + 1 : quotient, true)
        case .roundTowardNegativeInfinity:
            return (numerator < 0 ? quotient - 1 : quotient, true)
        }
    }
}
