import Foundation
import SpeechMigration
import Testing
import TestSupport

/// The suites in MigrationGuide/ on the real engine: the sample suite passes
/// (references, goldens, all four paths against each other); the
/// deliberately broken one fails with a report that says why.
@Suite("Sample migration suites on the real engine",
       .enabled(if: Models.testsEnabled, Models.disabledReason),
       .serialized)
struct SampleSuiteModelTests {
    private let guide = Fixtures.packageRoot.appendingPathComponent("MigrationGuide")

    @Test("MigrationGuide/Suite passes on every path, twice with identical output")
    func sampleSuitePasses() async throws {
        let suite = try MigrationSuite(contentsOf: guide.appendingPathComponent("Suite"))
        let result = await MigrationSuiteRunner(suite: suite).run()
        #expect(result.passed, "\(result.summary)")
        #expect(result.paths.count == 4 && result.cases.count == 3)
        let again = await MigrationSuiteRunner(suite: suite).run()
        #expect(try again.jsonData() == result.jsonData(), "suite output is deterministic")
    }

    @Test("MigrationGuide/BrokenSuite fails, naming the case, the bound and the wrong word")
    func brokenSuiteFails() async throws {
        let suite = try MigrationSuite(contentsOf: guide.appendingPathComponent("BrokenSuite"))
        let result = await MigrationSuiteRunner(suite: suite).run()
        #expect(!result.passed)
        let failure = try #require(result.cases.first?.failures.first)
        #expect(failure.name == "legacy: WER vs reference ≤ 0.100")
        #expect(failure.message.contains("[-backward-]{+forward+}"), "\(failure.message)")
        #expect(result.summary.contains("FAIL goforward-wrong-reference"))
        #expect(JUnitReport.xml(for: result).contains("<failure message=\"WER 0.250"))
    }
}
