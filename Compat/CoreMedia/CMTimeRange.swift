// CMTimeRange: a half-open span of time, as CoreMedia and its Swift overlay
// define it (API.md §2.13).

/// A range of time given by a start time and a duration; it contains times
/// `t` with `start <= t < end`.
/// - Note: On Linux this is a plain Swift struct with CoreMedia's semantics.
public struct CMTimeRange: Sendable {
    /// The start of the range.
    public var start: CMTime
    /// The length of the range; its epoch must be 0 for the range to be valid.
    public var duration: CMTime

    /// Creates the all-zero range, which is invalid (both times are invalid).
    public init() {
        start = CMTime()
        duration = CMTime()
    }

    /// Creates a range from a start and a duration (`CMTimeRangeMake`).
    public init(start: CMTime, duration: CMTime) {
        self.start = start
        self.duration = duration
    }

    /// Creates the range from `start` up to (not including) `end`
    /// (`CMTimeRangeFromTimeToTime`); invalid if either time is invalid.
    public init(start: CMTime, end: CMTime) {
        guard start.isValid, end.isValid else { self = .invalid; return }
        var startOnZeroEpoch = start
        var endOnZeroEpoch = end
        guard start.epoch == end.epoch else { self = .invalid; return }
        startOnZeroEpoch.epoch = 0
        endOnZeroEpoch.epoch = 0
        self.init(start: start, duration: endOnZeroEpoch - startOnZeroEpoch)
    }

    /// The empty range at time zero (`kCMTimeRangeZero`).
    public static let zero = CMTimeRange(start: .zero, duration: .zero)
    /// The invalid range (`kCMTimeRangeInvalid`).
    public static let invalid = CMTimeRange()

    /// The end of the range, `start + duration` (`CMTimeRangeGetEnd`); invalid
    /// for an invalid range.
    public var end: CMTime {
        guard isValid else { return .invalid }
        var durationOnStartEpoch = duration
        durationOnStartEpoch.epoch = start.epoch
        return start + durationOnStartEpoch
    }

    /// Whether the range is valid: both times valid, the duration's epoch 0 and
    /// the duration not negative.
    public var isValid: Bool {
        guard start.isValid, duration.isValid, duration.epoch == 0 else { return false }
        if duration.isNegativeInfinity { return false }
        return !duration.isNumeric || duration.value >= 0
    }

    /// Whether the range is valid and either its start or duration is indefinite.
    public var isIndefinite: Bool { isValid && (start.isIndefinite || duration.isIndefinite) }

    /// Whether the range is valid and has zero duration.
    public var isEmpty: Bool { isValid && duration == .zero }

    /// Whether `time` lies in the range: `start <= time < end`
    /// (`CMTimeRangeContainsTime`).
    public func containsTime(_ time: CMTime) -> Bool {
        guard isValid, time.isValid else { return false }
        return CMTime.compare(start, time) <= 0 && CMTime.compare(time, end) < 0
    }

    /// Whether `range` lies wholly inside this range
    /// (`CMTimeRangeContainsTimeRange`).
    public func containsTimeRange(_ range: CMTimeRange) -> Bool {
        guard isValid, range.isValid else { return false }
        return CMTime.compare(start, range.start) <= 0 && CMTime.compare(range.end, end) <= 0
    }

    /// The smallest range holding both ranges (`CMTimeRangeGetUnion`); invalid
    /// if either range is invalid.
    public func union(_ otherRange: CMTimeRange) -> CMTimeRange {
        guard isValid, otherRange.isValid else { return .invalid }
        return CMTimeRange(start: CMTimeMinimum(start, otherRange.start),
                           end: CMTimeMaximum(end, otherRange.end))
    }

    /// The largest range inside both ranges (`CMTimeRangeGetIntersection`);
    /// `.zero` when they do not overlap, invalid if either range is invalid.
    public func intersection(_ otherRange: CMTimeRange) -> CMTimeRange {
        guard isValid, otherRange.isValid else { return .invalid }
        let newStart = CMTimeMaximum(start, otherRange.start)
        let newEnd = CMTimeMinimum(end, otherRange.end)
        guard CMTime.compare(newStart, newEnd) < 0 else { return .zero }
        return CMTimeRange(start: newStart, end: newEnd)
    }
}

extension CMTimeRange: Equatable {
    /// Whether both start and duration are equal by `CMTimeCompare`
    /// (`CMTimeRangeEqual`).
    public static func == (lhs: CMTimeRange, rhs: CMTimeRange) -> Bool {
        lhs.start == rhs.start && lhs.duration == rhs.duration
    }
}

extension CMTimeRange: Hashable {
    /// Hashes start and duration consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(start)
        hasher.combine(duration)
    }
}

extension CMTimeRange: CustomStringConvertible {
    /// A readable form such as `CMTimeRange(start: …, duration: …)`.
    public var description: String { "CMTimeRange(start: \(start), duration: \(duration))" }
}
