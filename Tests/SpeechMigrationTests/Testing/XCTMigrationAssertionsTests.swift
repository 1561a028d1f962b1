import Foundation
import SpeechMigration
import SpeechMigrationTesting
import XCTest

/// The XCTest face of SpeechMigrationTesting (failures are checked through
/// `OutcomeEquivalence` in the Swift Testing suites: XCTest on Linux has no
/// `XCTExpectFailure`).
final class XCTMigrationAssertionsTests: XCTestCase {
    func testEquivalentOutcomesPass() {
        let legacy = OutcomeFixtures.outcome(.legacy, "the quick brown fox")
        let modern = OutcomeFixtures.outcome(.modern, "The quick brown fox.", shift: 0.01)
        XCTAssertOutcomesEquivalent(modern, legacy, timingToleranceSeconds: 0.05)
    }

    func testGoldenReplayPasses() throws {
        let outcome = OutcomeFixtures.outcome(.modernOverLegacy, "red green blue")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("xct-golden-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try outcome.jsonData().write(to: url)
        XCTAssertMatchesGolden(outcome, at: url)
        let failures = try GoldenReplay.failures(of: OutcomeFixtures.outcome(.modernOverLegacy, "red green glue"),
                                                 againstGoldenAt: url)
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures[0].contains("[-blue-]{+glue+}"), failures[0])
    }
}
