import Foundation

/// Resident memory at regular points of audio time during a stream: at the
/// start, every `intervalSeconds` of audio processed, and at the end. A
/// recognizer with bounded memory shows a flat line after warm-up, which a
/// single peak figure cannot show.
struct ResidentTimeline: Sendable, Hashable, Encodable {
    /// One measurement.
    struct Point: Sendable, Hashable, Encodable {
        /// Audio processed by the recognizer when measured, in seconds.
        var audioSeconds: Double
        /// Wall time since the stream started, in seconds.
        var wallSeconds: Double
        /// Resident set size at that moment.
        var residentMegabytes: Double
        /// The process's peak resident set size so far.
        var peakResidentMegabytes: Double
    }

    /// Audio seconds between measurements.
    let intervalSeconds: Double
    private(set) var points: [Point] = []
    /// The audio position of the next measurement; the first is at 0.
    private var nextMark = 0.0

    /// Progress arrives in 100 ms steps computed from sample counts; the
    /// tolerance keeps a mark of 300 s from slipping to 300.1 s on rounding.
    private static let tolerance = 1e-6

    init(intervalSeconds: Double) {
        precondition(intervalSeconds > 0, "the interval must be positive")
        self.intervalSeconds = intervalSeconds
    }

    /// Whether processing up to `audioSeconds` has reached the next mark.
    func isDue(atAudioSeconds audioSeconds: Double) -> Bool {
        audioSeconds + Self.tolerance >= nextMark
    }

    /// Records `point` if its audio position reached the next mark. Marks
    /// passed in one step (a long chunk) give one point, not several.
    mutating func recordIfDue(_ point: @autoclosure () -> Point, atAudioSeconds audioSeconds: Double) {
        guard isDue(atAudioSeconds: audioSeconds) else { return }
        append(point())
    }

    /// Records the end of the stream, unless a mark already fell there.
    mutating func recordEnd(_ point: Point) {
        if let last = points.last, abs(last.audioSeconds - point.audioSeconds) <= Self.tolerance { return }
        append(point)
    }

    private mutating func append(_ point: Point) {
        points.append(point)
        while nextMark <= point.audioSeconds + Self.tolerance { nextMark += intervalSeconds }
    }

    /// The lowest and highest resident size after the first point: the
    /// start is measured before any recognition pass allocated its
    /// buffers, so it is not part of the steady state.
    var steadyRangeMegabytes: ClosedRange<Double>? {
        let steady = points.dropFirst().map(\.residentMegabytes)
        guard let low = steady.min(), let high = steady.max(), steady.count >= 2 else { return nil }
        return low...high
    }

    private enum CodingKeys: String, CodingKey {
        case intervalSeconds, points, steadyMinimumMegabytes, steadyMaximumMegabytes
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(intervalSeconds, forKey: .intervalSeconds)
        try container.encode(points, forKey: .points)
        try container.encodeIfPresent(steadyRangeMegabytes?.lowerBound, forKey: .steadyMinimumMegabytes)
        try container.encodeIfPresent(steadyRangeMegabytes?.upperBound, forKey: .steadyMaximumMegabytes)
    }

    /// `1:05:00` for 3900 s: audio positions read as clock times.
    static func clockTime(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
    }

    /// The timeline as text lines under a heading.
    var table: String {
        var lines = ["RSS timeline (every \(Self.clockTime(intervalSeconds)) of audio)",
                     "  " + "audio".padding(toLength: 9, withPad: " ", startingAt: 0) + Self.leftPad("wall", 10)
                         + Self.leftPad("RSS", 11) + Self.leftPad("peak", 11)]
        for point in points {
            lines.append("  " + Self.clockTime(point.audioSeconds).padding(toLength: 9, withPad: " ", startingAt: 0)
                         + Self.leftPad(String(format: "%.1f s", point.wallSeconds), 10)
                         + Self.leftPad(String(format: "%.1f MB", point.residentMegabytes), 11)
                         + Self.leftPad(String(format: "%.1f MB", point.peakResidentMegabytes), 11))
        }
        if let range = steadyRangeMegabytes {
            lines.append(String(format: "RSS after the start: %.1f–%.1f MB (spread %.1f MB)",
                                range.lowerBound, range.upperBound, range.upperBound - range.lowerBound))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func leftPad(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
}
