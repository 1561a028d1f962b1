import Foundation

/// The result of running a `MigrationSuite`: every case, its outcomes and
/// checks. It holds no wall-clock values, so the same input and settings
/// give byte-identical JSON and JUnit output.
public struct SuiteResult: Sendable, Hashable, Codable {
    /// The suite's name.
    public var name: String
    /// The paths run, baseline first.
    public var paths: [RecognitionPath]
    /// The cases in manifest order.
    public var cases: [SuiteCaseResult]
    /// Which shard of the suite this result covers, for a run with
    /// `--shard I/N` (N > 1); nil for a whole run or a merged one, so a merged
    /// result encodes exactly as a whole run's.
    public var shard: SuiteShardInfo?

    /// Creates a result.
    public init(name: String, paths: [RecognitionPath], cases: [SuiteCaseResult], shard: SuiteShardInfo? = nil) {
        self.name = name
        self.paths = paths
        self.cases = cases
        self.shard = shard
    }

    /// Whether every check of every case passed.
    public var passed: Bool { cases.allSatisfy(\.passed) }
    /// The number of failed checks.
    public var failureCount: Int { cases.map(\.failures.count).reduce(0, +) }
    /// The number of checks.
    public var checkCount: Int { cases.map(\.checks.count).reduce(0, +) }

    /// The result as pretty-printed JSON with sorted keys.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// A readable summary: one line per case, each failed check with its
    /// reason, and a total line.
    public var summary: String {
        let part = shard.map { " shard \($0.index)/\($0.count)" } ?? ""
        var lines = ["Suite \(name)\(part) (paths: \(paths.map(\.rawValue).joined(separator: ", ")))"]
        for item in cases {
            lines.append("\(item.passed ? "PASS" : "FAIL") \(item.id)")
            for outcome in item.outcomes {
                let text = outcome.error.map { "(\($0)) " } ?? ""
                lines.append("     \(outcome.path.rawValue): \(text)\(outcome.transcript)")
            }
            for check in item.checks {
                lines.append("     \(check.passed ? "✓" : "✗") \(check.name): \(check.message)")
            }
        }
        lines.append("\(cases.filter(\.passed).count)/\(cases.count) cases passed, \(failureCount) of \(checkCount) "
                     + "checks failed: \(passed ? "PASSED" : "FAILED")")
        return lines.joined(separator: "\n")
    }
}
