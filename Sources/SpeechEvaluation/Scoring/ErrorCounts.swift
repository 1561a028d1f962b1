/// Substitution, deletion and insertion counts against a reference length:
/// the numerator and denominator of a word (or character) error rate.
///
/// Counts add up, so the rate of a set is total errors over total reference
/// units, not the mean of per-clip rates.
public struct ErrorCounts: Hashable, Sendable, Codable {
    /// Reference units replaced by other units.
    public var substitutions: Int
    /// Reference units missing from the hypothesis.
    public var deletions: Int
    /// Hypothesis units with no reference unit.
    public var insertions: Int
    /// Units in the reference (the denominator).
    public var referenceCount: Int

    /// Creates counts.
    public init(substitutions: Int = 0, deletions: Int = 0, insertions: Int = 0, referenceCount: Int = 0) {
        self.substitutions = substitutions
        self.deletions = deletions
        self.insertions = insertions
        self.referenceCount = referenceCount
    }

    /// Substitutions + deletions + insertions.
    public var errorCount: Int { substitutions + deletions + insertions }

    /// Errors per reference unit (may exceed 1 with many insertions). An
    /// empty reference gives 0 for an empty hypothesis and 1 otherwise.
    public var rate: Double {
        if referenceCount == 0 { return errorCount == 0 ? 0 : 1 }
        return Double(errorCount) / Double(referenceCount)
    }

    /// The counts of two scorings together.
    public static func + (lhs: ErrorCounts, rhs: ErrorCounts) -> ErrorCounts {
        ErrorCounts(substitutions: lhs.substitutions + rhs.substitutions,
                    deletions: lhs.deletions + rhs.deletions,
                    insertions: lhs.insertions + rhs.insertions,
                    referenceCount: lhs.referenceCount + rhs.referenceCount)
    }

    /// Adds `rhs` to `lhs`.
    public static func += (lhs: inout ErrorCounts, rhs: ErrorCounts) {
        lhs = lhs + rhs
    }
}
