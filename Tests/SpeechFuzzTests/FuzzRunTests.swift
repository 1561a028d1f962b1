import Foundation
import SpeechFuzzing
import TestSupport
import Testing

/// A short, fixed-seed run of every fuzz target (about a second each in
/// debug): every seed and a few hundred mutants must meet the target's
/// contract, none may trap. `Benchmarks/Fuzz/run.sh` runs the same targets
/// for minutes; RESULTS.md has its counts.
@Suite struct FuzzRunTests {
    /// Iterations per target, sized to the target's speed in debug builds.
    static let budgets: [String: Int] = [
        "model-bin": 30, "tokenizer-json": 10, "audio": 120, "custom-lm": 60, "manifest": 150, "suite-json": 150,
    ]

    @Test(arguments: FuzzTarget.all.map(\.name))
    func boundedRunFindsNothing(_ name: String) async throws {
        let target = try #require(FuzzTarget.named(name))
        let scratch = try Fixtures.temporaryDirectory("fuzz-\(name)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var runner = FuzzRunner(target: target, seed: 20_261_201, scratch: scratch)
        // No timing in unit tests: slow inputs are the long run's business.
        runner.slowInputSeconds = .infinity
        let report = try await runner.run(iterations: Self.budgets[name] ?? 50)
        for finding in report.findings {
            Issue.record("\(name) iteration \(finding.iteration): \(finding.problem)")
        }
        #expect(report.executions >= Self.budgets[name] ?? 50)
        // Seeds are valid inputs, so some are accepted; most mutants are refused.
        #expect(report.accepted > 0)
        #expect(report.refused > 0)
    }

    @Test func mutatorIsDeterministic() {
        var first = Mutator(seed: 7), second = Mutator(seed: 7), other = Mutator(seed: 8)
        let input = Array("RIFF....WAVEfmt 12345".utf8)
        let a = (0..<50).map { _ in first.mutate(input, splicing: input) }
        let b = (0..<50).map { _ in second.mutate(input, splicing: input) }
        let c = (0..<50).map { _ in other.mutate(input, splicing: input) }
        #expect(a == b)
        #expect(a != c)
        #expect(a.contains { $0 != input })
    }
}

/// Inputs found to break code outside the engine, kept as regression tests
/// (a trap cannot be caught in-process: a regression fails the whole run).
@Suite struct FuzzFindingTests {
    /// Two counts of `Int.max` for one phrase overflowed the sum in
    /// `CustomLanguageModelFile`; the sum now saturates (`summed(_:)`).
    @Test
    func customLanguageModelCountOverflow() async throws {
        let target = try #require(FuzzTarget.named("custom-lm"))
        let folder = try Fixtures.temporaryDirectory("fuzz-finding")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("input.json")
        try Data(#"{"phraseCounts":[{"phrase":"a","count":9223372036854775807},{"phrase":"a","count":9223372036854775807}]}"#.utf8)
            .write(to: input)
        _ = try await target.execute(input)
    }
}
