/// One expectation checked for a suite case: against the reference, a
/// golden, or another path.
public struct SuiteCheck: Sendable, Hashable, Codable {
    /// What was checked, e.g. `modern: WER vs reference ≤ 0.200`.
    public var name: String
    /// Whether it held.
    public var passed: Bool
    /// What was measured, and on failure why (with the word diff).
    public var message: String

    /// Creates a check result.
    public init(name: String, passed: Bool, message: String) {
        self.name = name
        self.passed = passed
        self.message = message
    }
}
