/// The score of one clip: its error counts and what they count.
public struct ClipScore: Hashable, Sendable, Codable {
    /// Words or characters.
    public var unit: ScoringUnit
    /// Substitutions, deletions, insertions and reference length.
    public var counts: ErrorCounts

    /// Creates a score.
    public init(unit: ScoringUnit, counts: ErrorCounts) {
        self.unit = unit
        self.counts = counts
    }
}
