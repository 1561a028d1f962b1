/// What one suite case produced on every path and how its checks went.
public struct SuiteCaseResult: Sendable, Hashable, Codable {
    /// The case id.
    public var id: String
    /// The audio as written in the manifest.
    public var audio: String
    /// One outcome per path, baseline first (empty if the audio was unreadable).
    public var outcomes: [RecognitionOutcome]
    /// The checks, in order.
    public var checks: [SuiteCheck]

    /// Creates a case result.
    public init(id: String, audio: String, outcomes: [RecognitionOutcome], checks: [SuiteCheck]) {
        self.id = id
        self.audio = audio
        self.outcomes = outcomes
        self.checks = checks
    }

    /// Whether every check passed.
    public var passed: Bool { checks.allSatisfy(\.passed) }
    /// The checks that failed.
    public var failures: [SuiteCheck] { checks.filter { !$0.passed } }
}
