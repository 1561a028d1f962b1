import Foundation
import SpeechMigration
import SpeechMigrationTesting
import Testing

@Suite struct MigrationExpectationsTests {
    private let legacy = OutcomeFixtures.outcome(.legacy, "go forward ten meters")

    @Test("equivalent outcomes record no issue")
    func equivalent() {
        MigrationExpectations.expectEquivalent(OutcomeFixtures.outcome(.modern, "Go forward, 10 meters.", shift: 0.02),
                                               to: legacy, timingToleranceSeconds: 0.05)
    }

    @Test("an outcome beyond the bounds records one issue per difference")
    func different() {
        withKnownIssue {
            MigrationExpectations.expectEquivalent(OutcomeFixtures.outcome(.modern, "go backward ten meters", shift: 0.3),
                                                   to: legacy, maximumWordErrorRate: 0.1, timingToleranceSeconds: 0.05)
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("[-forward-]{+backward+}") || text.contains("more than 0.050 s apart")
        }
    }

    @Test("golden replay passes on the recorded outcome and fails on a changed one")
    func goldenReplay() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("clip.legacy.json")
        try legacy.jsonData().write(to: url)
        MigrationExpectations.expectMatchesGolden(legacy, at: url)
        let changed = OutcomeFixtures.outcome(.legacy, "go forward ten meters", events: ["finalResult"])
        let failures = try GoldenReplay.failures(of: changed, againstGoldenAt: url)
        #expect(failures == ["event order differs: expected detectedSpeech → hypothesis → finalResult, got finalResult"])
        withKnownIssue {
            MigrationExpectations.expectMatchesGolden(legacy, at: folder.appendingPathComponent("missing.json"))
        }
    }
}
