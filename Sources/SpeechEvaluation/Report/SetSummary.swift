/// Aggregate scores of a group of clips: total errors over total reference
/// units, and the real-time factor when processing time was measured.
public struct SetSummary: Hashable, Sendable, Codable {
    /// The set's name (or a total's name, such as "english").
    public var name: String
    /// What the counts count.
    public var unit: ScoringUnit
    /// Clips in the group.
    public var clipCount: Int
    /// Summed counts.
    public var counts: ErrorCounts
    /// Summed audio duration in seconds (clips without a duration add 0).
    public var audioSeconds: Double
    /// Summed processing time, or nil if any clip lacks one.
    public var processingSeconds: Double?

    /// Creates a summary of `clips`, which must share `unit`.
    public init(name: String, unit: ScoringUnit, clips: [EvaluatedClip]) {
        self.name = name
        self.unit = unit
        clipCount = clips.count
        counts = clips.reduce(ErrorCounts()) { $0 + $1.score.counts }
        audioSeconds = clips.reduce(0) { $0 + ($1.entry.durationSeconds ?? 0) }
        let times = clips.compactMap(\.processingSeconds)
        processingSeconds = times.count == clips.count && !clips.isEmpty ? times.reduce(0, +) : nil
    }

    /// Total errors over total reference units.
    public var rate: Double { counts.rate }

    /// Processing time over audio time (below 1 is faster than real time),
    /// or nil when not measured.
    public var realTimeFactor: Double? {
        guard let processingSeconds, audioSeconds > 0 else { return nil }
        return processingSeconds / audioSeconds
    }
}
