import Foundation
import SpeechMigration
import SpeechMigrationTesting
import Testing
import TestSupport

/// Each step of the migration guide: the before (legacy) and after (modern)
/// programs run on the same corpus clip and must give equivalent output.
@Suite("Migration guide examples",
       .enabled(if: Models.testsEnabled, Models.disabledReason),
       .serialized)
struct GuideExampleTests {
    private let clip = Fixtures.corpusClip("audio/librispeech-dev-clean/1272-128104-0000.wav")
    private let reference = "mister quilter is the apostle of the middle classes and we are glad to welcome his gospel"

    private func halves(_ program: String, _ extra: [String] = [], audio: URL? = nil) throws
        -> (before: ExampleProgram.Run, after: ExampleProgram.Run) {
        let example = ExampleProgram(name: program)
        let path = (audio ?? clip).path
        let before = try example.run(["before", path] + extra)
        let after = try example.run(["after", path] + extra)
        #expect(before.status == 0, "before: \(before.error)")
        #expect(after.status == 0, "after: \(after.error)")
        return (before, after)
    }

    @Test("step 1: recognizer + URL request and analyzer + transcriber give the same words and times")
    func recognizerToAnalyzer() throws {
        let (before, after) = try halves("GuideRecognizerToAnalyzer")
        let legacy = before.outcome(.legacy), modern = after.outcome(.modern)
        #expect(legacy.words.count >= 10 && modern.words.count >= 10)
        MigrationExpectations.expectEquivalent(modern, to: legacy, maximumWordErrorRate: 0.1, timingToleranceSeconds: 0.5)
        MigrationExpectations.expectEquivalent(legacy, to: OutcomeFixtures.reference(reference), maximumWordErrorRate: 0.15)
    }

    @Test("step 2: partial results and volatile results lead to the same final text")
    func partialToVolatile() throws {
        let (before, after) = try halves("GuidePartialToVolatile")
        MigrationExpectations.expectEquivalent(after.outcome(.modern), to: before.outcome(.legacy), maximumWordErrorRate: 0.1)
        #expect(!before.lines(prefixed: "PARTIAL: ").isEmpty, "the legacy half showed partial results")
        #expect(!after.lines(prefixed: "VOLATILE: ").isEmpty, "the modern half showed volatile results")
    }

    @Test("step 3: authorization and asset readiness both reach READY and the same transcript")
    func authorizationToAssets() throws {
        let (before, after) = try halves("GuideAuthorizationToAssets")
        #expect(before.output.contains("AUTHORIZATION: ") && before.output.contains("READY"))
        // `reserve` answers false when the locale is already reserved (samples may hold it meanwhile).
        #expect(after.output.contains("ASSETS: installed") && after.output.contains("RESERVED: ")
                && after.output.contains("READY"))
        MigrationExpectations.expectEquivalent(after.outcome(.modern), to: before.outcome(.legacy), maximumWordErrorRate: 0.1)
    }

    @Test("step 4: restarted legacy tasks and one long-form analysis give one continuous transcript")
    func oneMinuteToLongForm() throws {
        let folder = try Fixtures.temporaryDirectory("guide-long")
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = try MigrationModelSupport.concatenate([clip, clip], into: folder)
        let (before, after) = try halves("GuideOneMinuteToLongForm", ["7"], audio: long)
        #expect(before.lines(prefixed: "TASKS: ").first.flatMap { Int($0) } ?? 0 >= 2)
        MigrationExpectations.expectEquivalent(after.outcome(.modern), to: before.outcome(.legacy),
                                               maximumWordErrorRate: 0.12, timingToleranceSeconds: 0.6)
    }
}
