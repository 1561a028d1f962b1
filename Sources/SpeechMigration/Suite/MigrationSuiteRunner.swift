import Foundation
import SpeechEvaluation

/// Runs a `MigrationSuite`: each case's audio through each path, checked
/// against its reference, its goldens and the baseline path. The logic of
/// `speech migrate-test`; `recordGoldens()` is `speech record-golden`.
public struct MigrationSuiteRunner: Sendable {
    /// The suite.
    public var suite: MigrationSuite
    /// Runs one path on one file; by default a `PathRunner` with the
    /// suite's locale and punctuation. Tests may substitute a recorded one.
    public var recognize: @Sendable (RecognitionPath, URL) async throws -> RecognitionOutcome

    /// Creates a runner for `suite` on the real faces.
    public init(suite: MigrationSuite) {
        self.suite = suite
        let runner = PathRunner(locale: Locale(identifier: suite.locale ?? "en-US"),
                                addsPunctuation: suite.addsPunctuation ?? false)
        recognize = { path, url in try await runner.run(path, on: url) }
    }

    /// Creates a runner that recognizes with `recognize`.
    public init(suite: MigrationSuite,
                recognize: @escaping @Sendable (RecognitionPath, URL) async throws -> RecognitionOutcome) {
        self.suite = suite
        self.recognize = recognize
    }

    private var languageTag: String { suite.locale ?? "en-US" }

    /// Runs every case, in order. Never throws for a failing case: an
    /// unreadable file, a failed path, a missing or malformed golden, or a
    /// case that breaks the suite's rules (a bound out of range, a path
    /// outside the suite) is a failed check of that case, and the run goes on.
    public func run() async -> SuiteResult {
        await run(shard: nil)
    }

    /// Runs the cases of `shard` (all cases when nil or `1/1`), in manifest
    /// order. A shard's result records the shard and every case id of the
    /// suite, so that `SuiteResult.merging(_:)` can rebuild the whole run.
    public func run(shard: Shard?) async -> SuiteResult {
        let part = shard.flatMap { $0.count > 1 ? $0 : nil }
        var cases: [SuiteCaseResult] = []
        for (index, item) in suite.cases.enumerated() where part?.contains(id: item.id) ?? true {
            cases.append(await run(item, at: index))
        }
        return SuiteResult(name: suite.name, paths: suite.effectivePaths, cases: cases,
                           shard: part.map { SuiteShardInfo(shard: $0, suiteCaseIDs: suite.cases.map(\.id)) })
    }

    /// Records the golden outcome of every `golden: true` case on every
    /// path into `goldens/`; returns the files written. Every path is
    /// checked before anything runs, so a suite with one bad case id or
    /// audio path writes nothing.
    /// - Throws: `MigrationError`: `.pathOutsideSuite` or `.invalidSuite` for
    ///   a case that breaks the rules, `.outputFailed` when a file cannot be
    ///   written, or the recognition error.
    public func recordGoldens() async throws -> [URL] {
        for (index, item) in suite.cases.enumerated() where item.golden == true {
            if let problem = suite.problem(with: item, at: index, manifest: nil, data: nil) { throw problem }
        }
        let goldens = try suite.checkedGoldenURLs()
        var audioByID: [String: URL] = [:]
        for (index, item) in suite.cases.enumerated() where item.golden == true {
            audioByID[item.id] = try suite.checkedAudioURL(for: item, at: index)
        }
        var written: [URL] = []
        for (item, path, url) in goldens {
            let outcome = try await recognize(path, audioByID[item.id]!)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                                                        withIntermediateDirectories: true)
                try outcome.jsonData().write(to: url)
            } catch {
                throw MigrationError(.outputFailed, "The golden \(url.path) cannot be written.", underlying: error)
            }
            written.append(url)
        }
        return written
    }

    private func run(_ item: SuiteCase, at index: Int) async -> SuiteCaseResult {
        if let problem = suite.problem(with: item, at: index, manifest: nil, data: nil) {
            let check = SuiteCheck(name: "suite: case definition", passed: false, message: problem.message)
            return SuiteCaseResult(id: item.id, audio: item.audio, outcomes: [], checks: [check])
        }
        let audio: URL
        do {
            audio = try suite.checkedAudioURL(for: item, at: index)
        } catch {
            let check = SuiteCheck(name: "suite: audio path", passed: false, message: String(describing: error))
            return SuiteCaseResult(id: item.id, audio: item.audio, outcomes: [], checks: [check])
        }
        var outcomes: [RecognitionOutcome] = []
        var checks: [SuiteCheck] = []
        for path in suite.effectivePaths {
            do {
                outcomes.append(try await recognize(path, audio))
            } catch {
                checks.append(SuiteCheck(name: "\(path.rawValue): recognition", passed: false,
                                         message: String(describing: error)))
            }
        }
        for outcome in outcomes {
            if let reference = item.reference { checks.append(referenceCheck(outcome, reference, item)) }
            if item.golden == true { checks.append(goldenCheck(outcome, item, at: index)) }
        }
        if let baseline = outcomes.first {
            let bound = item.crossPathMaximumWordErrorRate ?? suite.crossPathMaximumWordErrorRate ?? 0.15
            for other in outcomes.dropFirst() {
                let comparison = OutcomeComparison(baseline: baseline, other: other, languageTag: languageTag)
                let passed = comparison.wordErrorRate <= bound + 1e-9
                checks.append(SuiteCheck(
                    name: String(format: "%@ vs %@: WER ≤ %.3f", other.path.rawValue, baseline.path.rawValue, bound),
                    passed: passed,
                    message: String(format: "WER %.3f", comparison.wordErrorRate)
                        + (passed ? "" : "; diff: \(comparison.wordDiff)")))
            }
        }
        return SuiteCaseResult(id: item.id, audio: item.audio, outcomes: outcomes, checks: checks)
    }

    private func referenceCheck(_ outcome: RecognitionOutcome, _ reference: String, _ item: SuiteCase) -> SuiteCheck {
        let bound = item.maximumWordErrorRate ?? 0.2
        let alignment = TranscriptScorer().alignment(reference: reference, hypothesis: outcome.transcript,
                                                     languageTag: languageTag)
        let rate = alignment.counts.referenceCount == 0 ? 0 : alignment.counts.rate
        let passed = rate <= bound + 1e-9 && (outcome.error == nil || reference.isEmpty)
        var message = String(format: "WER %.3f", rate)
        if let error = outcome.error { message += " (error \(error))" }
        if !passed { message += "; diff vs reference: \(alignment.wordDiff)" }
        return SuiteCheck(name: String(format: "%@: WER vs reference ≤ %.3f", outcome.path.rawValue, bound),
                          passed: passed, message: message)
    }

    private func goldenCheck(_ outcome: RecognitionOutcome, _ item: SuiteCase, at index: Int) -> SuiteCheck {
        let name = "\(outcome.path.rawValue): matches golden"
        let golden: RecognitionOutcome
        do {
            let url = try suite.checkedGoldenURL(for: item, at: index, path: outcome.path)
            golden = try GoldenFile.read(url, path: outcome.path, suite: suite.folder)
        } catch {
            return SuiteCheck(name: name, passed: false, message: String(describing: error))
        }
        let equivalence = OutcomeEquivalence(maximumWordErrorRate: 0,
                                             timingToleranceSeconds: item.timingToleranceSeconds ?? 0.05,
                                             requiresSameEvents: true)
        let failures = equivalence.failures(expected: golden, actual: outcome, languageTag: languageTag)
        return SuiteCheck(name: name, passed: failures.isEmpty,
                          message: failures.isEmpty ? "same words, times within tolerance, same events"
                              : failures.joined(separator: "; "))
    }
}
