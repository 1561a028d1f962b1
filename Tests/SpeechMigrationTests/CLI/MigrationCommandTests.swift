import Foundation
import SpeechMigration
import Testing
import TestSupport

/// `speech compare`, `speech migrate-test` and `speech record-golden` as a
/// user runs them: the built `speech` program.
@Suite struct MigrationCommandTests {
    private let speech = ExampleProgram(name: "speech")

    @Test("help for each command; usage errors exit 64 with the usage line")
    func helpAndUsage() throws {
        for command in ["compare", "migrate-test", "record-golden", "merge"] {
            let help = try speech.run(["help", command])
            #expect(help.status == 0)
            #expect(help.output.contains("USAGE:") && help.output.contains(command))
            let missing = try speech.run([command])
            #expect(missing.status == 64, "\(command): \(missing.error)")
            #expect(missing.error.contains("Error: Missing expected argument"))
        }
        let badPath = try speech.run(["compare", "x.wav", "--paths", "legacy,old"])
        #expect(badPath.status == 64 && badPath.error.contains("Unknown recognition path 'old'"))
    }

    @Test("record-golden on a suite whose case id climbs out of it exits 1 and writes nothing")
    func recordGoldenRefusesAnEscapingCaseID() throws {
        let parent = try Fixtures.temporaryDirectory("escape")
        defer { try? FileManager.default.removeItem(at: parent) }
        let folder = parent.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{"name": "untrusted", "paths": ["legacy"], "cases": [{"id": "../../pwned", "audio": "a.wav", "golden": true}]}"#
            .write(to: folder.appendingPathComponent("suite.json"), atomically: true, encoding: .utf8)
        for command in ["record-golden", "migrate-test"] {
            let run = try speech.run([command, folder.path])
            #expect(run.status == 1, "\(command): \(run.error)")
            #expect(run.error.hasPrefix(#"Error: Suite untrusted, key cases[0].id: the case id "../../pwned" names the golden"#))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["suite"])
        #expect(!FileManager.default.fileExists(atPath: parent.deletingLastPathComponent().appendingPathComponent("pwned.legacy.json").path))
    }

    @Test("a missing suite is a clear runtime error (exit 1)")
    func missingSuite() throws {
        let run = try speech.run(["migrate-test", "/nonexistent/suite"])
        #expect(run.status == 1)
        #expect(run.error.contains("No suite at /nonexistent/suite"))
    }
}

/// The commands on the real engine and the suites in MigrationGuide/.
@Suite("speech migration commands on the real engine",
       .enabled(if: Models.testsEnabled, Models.disabledReason),
       .serialized)
struct MigrationCommandModelTests {
    private let speech = ExampleProgram(name: "speech")
    private let guide = Fixtures.packageRoot.appendingPathComponent("MigrationGuide")

    @Test("speech compare --format json reports all five paths with WER 0 on a clean clip")
    func compareJSON() throws {
        let run = try speech.run(["compare", MigrationModelSupport.goForward.path, "--format", "json"])
        #expect(run.status == 0, "\(run.error)")
        let reports = try JSONDecoder().decode([ComparisonReport].self, from: Data(run.output.utf8))
        #expect(reports.first?.outcomes.map(\.path) == RecognitionPath.allCases)
        #expect(reports.first?.largestWordErrorRate == 0)
    }

    @Test("speech compare with a corrupted model: every path's error and fix, nothing compared, exit 1")
    func compareWithACorruptedModel() throws {
        let store = try Fixtures.temporaryDirectory("corrupted-store")
        defer { try? FileManager.default.removeItem(at: store) }
        let modelBin = try Models.storeWithCorruptedWhisperBase(in: store)
        let run = try speech.run(["compare", MigrationModelSupport.goForward.path],
                                 environment: ["SPEECHCOMPAT_MODELS_DIR": store.path])
        #expect(run.status == 1, "\(run.error)")
        // Two failed paths used to read as agreement: "WER 0.000, (both empty)".
        #expect(!run.output.contains("WER") && run.output.contains("modern vs legacy: not compared, legacy failed"))
        for path in RecognitionPath.allCases {
            let line = run.error.split(separator: "\n").first { $0.contains("\(path.rawValue) failed on ps_goforward.wav: ") }
            #expect(line?.contains("\(modelBin.path) is corrupted: its SHA-256 is") == true, "\(path.rawValue): \(run.error)")
            #expect(line?.contains("Run `speech assets install whisper-base` to reinstall it.") == true)
        }
    }

    @Test("speech migrate-test on the broken suite exits 1 with the failing check and writes JUnit")
    func brokenSuite() throws {
        let folder = try Fixtures.temporaryDirectory("junit")
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("out.xml")
        let run = try speech.run(["migrate-test", guide.appendingPathComponent("BrokenSuite").path, "--junit", junit.path])
        #expect(run.status == 1)
        #expect(run.output.contains("✗ legacy: WER vs reference ≤ 0.100: WER 0.250; diff vs reference: go [-backward-]{+forward+} 10 meters"))
        #expect(run.error.contains("Error: Suite deliberately-broken failed: 2 of 3 checks failed."))
        #expect(try String(contentsOf: junit, encoding: .utf8).contains(#"failures="2""#))
    }
}
