import CoreMedia
import Foundation
import Testing

/// CMTimeRange against Apple's documented semantics (half-open, validity rules).
@Suite struct CMTimeRangeTests {
    private func seconds(_ value: Int64) -> CMTime { CMTime(value: value, timescale: 1) }

    @Test func endAndValidity() {
        let range = CMTimeRange(start: seconds(2), duration: seconds(3))
        #expect(range.end == seconds(5) && CMTimeRangeGetEnd(range) == seconds(5))
        #expect(range.isValid && !range.isEmpty && !range.isIndefinite)
        #expect(!CMTimeRange.invalid.isValid && !CMTimeRange.invalid.end.isValid)
        #expect(CMTimeRange.zero.isEmpty && CMTIMERANGE_IS_EMPTY(kCMTimeRangeZero))
        #expect(!CMTimeRange(start: .zero, duration: seconds(-1)).isValid)
        #expect(!CMTimeRange(start: .zero, duration: CMTimeMakeWithEpoch(value: 1, timescale: 1, epoch: 1)).isValid)
        #expect(CMTimeRange(start: .zero, duration: .positiveInfinity).isValid)
        #expect(CMTIMERANGE_IS_INDEFINITE(CMTimeRange(start: .zero, duration: .indefinite)))
    }

    @Test func fromTimeToTime() {
        let range = CMTimeRange(start: CMTime(value: 1, timescale: 2), end: CMTime(value: 3, timescale: 2))
        #expect(range.duration == seconds(1) && range.start == CMTime(value: 1, timescale: 2))
        #expect(CMTimeRangeFromTimeToTime(start: .invalid, end: seconds(1)) == .invalid)
    }

    @Test func containsTimeIsHalfOpen() {
        let range = CMTimeRangeMake(start: seconds(1), duration: seconds(2))
        #expect(range.containsTime(seconds(1)))
        #expect(CMTimeRangeContainsTime(range, time: CMTime(value: 2999, timescale: 1000)))
        #expect(!range.containsTime(seconds(3)))
        #expect(!range.containsTime(CMTime(value: 999, timescale: 1000)))
        #expect(!range.containsTime(.invalid))
        #expect(!CMTimeRange.zero.containsTime(.zero))
    }

    @Test func containsTimeRange() {
        let outer = CMTimeRange(start: seconds(0), duration: seconds(10))
        #expect(outer.containsTimeRange(CMTimeRange(start: seconds(2), duration: seconds(8))))
        #expect(!outer.containsTimeRange(CMTimeRange(start: seconds(2), duration: seconds(9))))
        #expect(CMTimeRangeContainsTimeRange(outer, otherRange: outer))
        #expect(!outer.containsTimeRange(.invalid))
    }

    @Test func unionAndIntersection() {
        let a = CMTimeRange(start: seconds(0), duration: seconds(4))
        let b = CMTimeRange(start: seconds(2), duration: seconds(4))
        #expect(a.union(b) == CMTimeRange(start: seconds(0), duration: seconds(6)))
        #expect(a.intersection(b) == CMTimeRange(start: seconds(2), duration: seconds(2)))
        #expect(CMTimeRangeGetIntersection(a, otherRange: b) == CMTimeRangeGetIntersection(b, otherRange: a))
        let apart = CMTimeRange(start: seconds(7), duration: seconds(1))
        #expect(a.intersection(apart).isEmpty)
        #expect(CMTimeRangeGetUnion(a, otherRange: apart) == CMTimeRange(start: seconds(0), duration: seconds(8)))
        #expect(!a.union(.invalid).isValid)
    }

    @Test func equalityAndHashingUseTimeValues() {
        let a = CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: CMTime(value: 1, timescale: 1))
        let b = CMTimeRange(start: CMTime(value: 500, timescale: 1000), duration: CMTime(value: 600, timescale: 600))
        #expect(a == b && CMTimeRangeEqual(a, b) && Set([a, b]).count == 1)
    }

    @Test func codableRoundTripKeepsFields() throws {
        let time = CMTime(value: 7, timescale: 3, flags: [.valid, .hasBeenRounded], epoch: 2)
        let decoded = try JSONDecoder().decode(CMTime.self, from: JSONEncoder().encode(time))
        #expect(decoded.value == 7 && decoded.timescale == 3 && decoded.flags == time.flags && decoded.epoch == 2)
    }
}
