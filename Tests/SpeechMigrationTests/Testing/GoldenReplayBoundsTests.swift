import Foundation
import SpeechMigration
import SpeechMigrationTesting
import Testing

/// Bounds out of range in the testing helpers (issue 16): a WER bound of
/// 1e308, NaN or a negative one must not let a wrong transcript pass.
@Suite struct GoldenReplayBoundsTests {
    private let legacy = OutcomeFixtures.outcome(.legacy, "go forward ten meters")
    private let wrong = OutcomeFixtures.outcome(.modern, "something else entirely")

    @Test("WER bounds of 1e308, infinity, NaN, -0.1 and 1.5 are each a problem", arguments: [1e308, .infinity, .nan, -0.1, 1.5])
    func werBoundOutOfRangeIsAProblem(_ bound: Double) {
        let problems = GoldenReplay.boundProblems(of: OutcomeEquivalence(maximumWordErrorRate: bound))
        #expect(problems == ["maximumWordErrorRate \(bound) is out of range: give a finite number from 0 to 1."])
    }

    @Test func negativeTimingToleranceIsAProblem() {
        let problems = GoldenReplay.boundProblems(of: OutcomeEquivalence(timingToleranceSeconds: -0.05))
        #expect(problems == ["timingToleranceSeconds -0.05 is out of range: give a finite number of seconds from 0 to 10."])
        #expect(GoldenReplay.boundProblems(of: GoldenReplay.defaultEquivalence).isEmpty)
    }

    @Test("a wrong transcript under a 1e308 bound records an issue instead of passing")
    func hugeBoundDoesNotLetAWrongTranscriptPass() {
        withKnownIssue {
            MigrationExpectations.expectEquivalent(wrong, to: legacy, maximumWordErrorRate: 1e308)
        } matching: { issue in
            String(describing: issue).contains("maximumWordErrorRate 1e+308 is out of range")
        }
    }

    @Test("a malformed golden is an invalidGolden error naming the line and key")
    func malformedGoldenNamesLineAndKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("clip.legacy.json")
        try "{\"path\": \"legacy\",\n \"transcript\": [1], \"words\": [], \"events\": [], \"alternatives\": []}"
            .write(to: url, atomically: true, encoding: .utf8)
        let error = try #require(throws: MigrationError.self) { _ = try GoldenReplay.failures(of: legacy, againstGoldenAt: url) }
        #expect(error.code == .invalidGolden && error.key == "transcript")
        #expect(error.message == "\(url.path) line 2, key transcript: expected a string in double quotes, found an array. "
                + "Give the transcript as a string, or re-record the golden.")
    }
}
