import CoreMedia
import Testing

/// CMTime against the results Apple documents (AD `cmtime*`, the Swift overlay).
@Suite struct CMTimeTests {
    @Test func constantsHaveApplesFields() {
        #expect(CMTime.zero.value == 0 && CMTime.zero.timescale == 1 && CMTime.zero.flags == .valid)
        #expect(!CMTime.invalid.isValid && CMTime.invalid.flags.rawValue == 0)
        #expect(CMTime.indefinite.isIndefinite && !CMTime.indefinite.isNumeric)
        #expect(CMTime.positiveInfinity.isPositiveInfinity && CMTIME_IS_POSITIVEINFINITY(kCMTimePositiveInfinity))
        #expect(CMTime.negativeInfinity.isNegativeInfinity && CMTIME_IS_NEGATIVEINFINITY(kCMTimeNegativeInfinity))
        #expect(CMTimeFlags.impliedValueFlagsMask.rawValue == 28)
        #expect(CMTIME_IS_INVALID(CMTime()) && CMTIME_IS_NUMERIC(CMTimeMake(value: 3, timescale: 4)))
    }

    @Test func secondsFollowsGetSecondsRules() {
        #expect(CMTime(value: 3, timescale: 4).seconds == 0.75)
        #expect(CMTime.invalid.seconds.isNaN && CMTimeGetSeconds(.indefinite).isNaN)
        #expect(CMTime.positiveInfinity.seconds == .infinity && CMTime.negativeInfinity.seconds == -.infinity)
        #expect(CMTimeMakeWithEpoch(value: 1, timescale: 2, epoch: 7).seconds == 0.5)
    }

    @Test func makeWithSecondsRoundsHalfAwayFromZeroAndFlagsRounding() {
        let half = CMTimeMakeWithSeconds(0.5, preferredTimescale: 600)
        #expect(half.value == 300 && half.timescale == 600 && !half.hasBeenRounded)
        let third = CMTime(seconds: 1.0 / 3.0, preferredTimescale: 600)
        #expect(third.value == 200)
        let tiny = CMTime(seconds: 0.0001, preferredTimescale: 600)
        #expect(tiny.value == 0 && tiny.hasBeenRounded)
        #expect(CMTime(seconds: -2.5, preferredTimescale: 1).value == -3)
        #expect(CMTime(seconds: .nan, preferredTimescale: 600).isValid == false)
        #expect(CMTime(seconds: .infinity, preferredTimescale: 600).isPositiveInfinity)
        #expect(CMTime(seconds: -.infinity, preferredTimescale: 600).isNegativeInfinity)
        let huge = CMTime(seconds: 1e16, preferredTimescale: 1_000_000)
        #expect(huge.isNumeric && huge.timescale < 1_000_000 && huge.seconds == 1e16)
    }

    @Test func equalityComparesRationalValues() {
        #expect(CMTime(value: 1, timescale: 2) == CMTime(value: 500, timescale: 1000))
        #expect(CMTime(value: 1, timescale: 3) != CMTime(value: 333, timescale: 1000))
        #expect(Set([CMTime(value: 1, timescale: 2), CMTime(value: 500, timescale: 1000)]).count == 1)
        #expect(CMTime.invalid == CMTime(value: 5, timescale: 0, flags: [], epoch: 3))
    }

    @Test func orderingMatchesCMTimeCompare() {
        let one = CMTime(value: 1, timescale: 1)
        let shuffled: [CMTime] = [.invalid, .positiveInfinity, .indefinite, one, .negativeInfinity, .zero]
        let sorted = shuffled.sorted()
        #expect(sorted[0].isNegativeInfinity)
        #expect(sorted[1] == .zero && sorted[2] == one)
        #expect(sorted[3].isIndefinite && sorted[4].isPositiveInfinity && !sorted[5].isValid)
        #expect(CMTimeCompare(.invalid, .invalid) == 0 && CMTimeCompare(.positiveInfinity, .invalid) == -1)
        let laterEpoch = CMTimeMakeWithEpoch(value: 0, timescale: 1, epoch: 1)
        let earlierEpoch = CMTimeMakeWithEpoch(value: 100, timescale: 1, epoch: 0)
        #expect(CMTimeCompare(laterEpoch, earlierEpoch) == 1)
        #expect(CMTimeMinimum(one, .zero) == .zero && CMTimeMaximum(one, .positiveInfinity).isPositiveInfinity)
    }

    @Test func additionUsesTheLeastCommonMultiple() {
        let sum = CMTime(value: 1, timescale: 3) + CMTime(value: 1, timescale: 2)
        #expect(sum.value == 5 && sum.timescale == 6 && !sum.hasBeenRounded)
        let difference = CMTimeSubtract(CMTime(value: 1, timescale: 2), CMTime(value: 3, timescale: 4))
        #expect(difference.value == -1 && difference.timescale == 4)
        var accumulated = CMTime.zero
        for _ in 0..<10 { accumulated += CMTime(value: 1, timescale: 10) }
        #expect(accumulated == CMTime(value: 1, timescale: 1) && accumulated.timescale == 10)
    }

    @Test func additionFallsBackToTheLargerTimescaleAndRounds() {
        let a = CMTime(value: 1, timescale: 1_000_000_007)
        let b = CMTime(value: 1, timescale: 999_999_937)
        let sum = a + b
        #expect(sum.timescale == 1_000_000_007 && sum.hasBeenRounded)
        #expect(abs(sum.seconds - (a.seconds + b.seconds)) < 1e-9)
    }

    @Test func additionOfSpecialTimes() {
        let one = CMTime(value: 1, timescale: 1)
        #expect(!(CMTime.invalid + one).isValid)
        #expect(!(CMTime.positiveInfinity + .negativeInfinity).isValid)
        #expect((CMTime.indefinite + one).isIndefinite)
        #expect((CMTime.positiveInfinity + one).isPositiveInfinity)
        #expect((one - .positiveInfinity).isNegativeInfinity)
        #expect(!(CMTime.positiveInfinity - .positiveInfinity).isValid)
        #expect(!(one + CMTimeMakeWithEpoch(value: 1, timescale: 1, epoch: 2)).isValid)
    }

    @Test func multiplicationKeepsTheTimescaleUntilOverflow() {
        let doubled = CMTimeMultiply(CMTime(value: 3, timescale: 600), multiplier: 2)
        #expect(doubled.value == 6 && doubled.timescale == 600)
        let big = CMTime(value: .max / 2 + 1, timescale: 999)
        let overflowed = CMTimeMultiply(big, multiplier: 3)
        #expect(overflowed.isNumeric && overflowed.timescale == 499 && overflowed.hasBeenRounded)
        #expect(abs(overflowed.seconds / big.seconds - 3) < 1e-9)
        let exactlyHalved = CMTimeMultiply(CMTime(value: .max / 2 + 1, timescale: 1000), multiplier: 4)
        #expect(exactlyHalved.timescale == 250 && !exactlyHalved.hasBeenRounded)
        #expect(CMTimeMultiplyByRatio(CMTime(value: 10, timescale: 30), multiplier: 1, divisor: 3).value == 3)
        #expect(!CMTimeMultiplyByRatio(CMTime(value: 10, timescale: 30), multiplier: 1, divisor: 0).isValid)
        #expect(CMTimeMultiplyByFloat64(CMTime(value: 10, timescale: 30), multiplier: 1.5).value == 15)
        #expect(CMTimeMultiply(.positiveInfinity, multiplier: -1).isNegativeInfinity)
        #expect(CMTimeAbsoluteValue(CMTime(value: -4, timescale: 2)).value == 4)
        #expect(CMTimeAbsoluteValue(.negativeInfinity).isPositiveInfinity)
    }

    @Test func convertScaleHonoursEachRoundingMethod() {
        let third = CMTime(value: 1, timescale: 3)
        let converted = CMTimeConvertScale(third, timescale: 10, method: .default)
        #expect(converted.value == 3 && converted.hasBeenRounded)
        let minusHalf = CMTime(value: -5, timescale: 10)
        #expect(minusHalf.convertScale(1, method: .roundHalfAwayFromZero).value == -1)
        #expect(minusHalf.convertScale(1, method: .roundTowardZero).value == 0)
        #expect(minusHalf.convertScale(1, method: .roundTowardPositiveInfinity).value == 0)
        #expect(minusHalf.convertScale(1, method: .roundTowardNegativeInfinity).value == -1)
        #expect(CMTime(value: 1, timescale: 10).convertScale(1, method: .roundAwayFromZero).value == 1)
        // QuickTime never rounds a negative time up to zero.
        #expect(CMTime(value: -1, timescale: 10).convertScale(1, method: .quickTime).value == -1)
        #expect(CMTime(value: 19, timescale: 10).convertScale(1, method: .quickTime).value == 1)
        #expect(CMTimeRoundingMethod.quickTime.rawValue == 4 && CMTimeRoundingMethod.default == .roundHalfAwayFromZero)
        let exact = CMTime(value: 1, timescale: 2).convertScale(1000, method: .default)
        #expect(exact.value == 500 && !exact.hasBeenRounded)
        #expect(CMTime.indefinite.convertScale(10, method: .default).isIndefinite)
    }
}
