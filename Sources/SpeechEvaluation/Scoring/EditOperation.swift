/// How one position of an alignment turns the reference into the hypothesis.
public enum EditOperation: String, Sendable, Hashable, Codable, CaseIterable {
    /// The same unit in both.
    case match
    /// A reference unit replaced by a different hypothesis unit.
    case substitution
    /// A reference unit missing from the hypothesis.
    case deletion
    /// A hypothesis unit with no reference unit.
    case insertion
}
