import CoreMedia
import Foundation

@available(macOS 26.0, iOS 26.0, *)
extension AttributedString {
    /// The range of text whose `audioTimeRange` attributes intersect
    /// `timeRange`, or `nil` when no run's time range does.
    ///
    /// The result runs from the first intersecting run to the last one, so it
    /// also covers runs between them that carry no time range (spaces,
    /// punctuation). Time ranges in the string should be ascending; they need
    /// not be contiguous, and some runs may have none.
    ///
    /// Use it to find the words being played back:
    /// ```swift
    /// if let words = transcript.rangeOfAudioTimeRangeAttributes(intersecting: playbackRange) {
    ///     highlight(transcript[words])
    /// }
    /// ```
    /// - Note: On Linux two ranges intersect when they share some time; a range
    ///   with zero duration intersects a run whose range contains its start.
    public func rangeOfAudioTimeRangeAttributes(intersecting timeRange: CMTimeRange) -> Range<AttributedString.Index>? {
        guard timeRange.isValid else { return nil }
        var first: AttributedString.Index?
        var last: AttributedString.Index?
        for (runTimeRange, range) in runs[AttributeScopes.SpeechAttributes.TimeRangeAttribute.self] {
            guard let runTimeRange, Self.timeRange(runTimeRange, intersects: timeRange) else { continue }
            if first == nil { first = range.lowerBound }
            last = range.upperBound
        }
        guard let first, let last else { return nil }
        return first..<last
    }

    /// Whether two time ranges share some time. Empty ranges count as points.
    private static func timeRange(_ run: CMTimeRange, intersects query: CMTimeRange) -> Bool {
        guard run.isValid else { return false }
        if query.duration == .zero {
            return run.containsTime(query.start) || (run.duration == .zero && run.start == query.start)
        }
        if run.duration == .zero {
            return query.containsTime(run.start)
        }
        return run.start < query.end && query.start < run.end
    }
}
