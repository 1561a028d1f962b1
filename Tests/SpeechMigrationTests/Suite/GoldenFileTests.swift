import Foundation
import SpeechMigration
import Testing

/// Missing and malformed goldens (issue 16): each fails its own case with a
/// message naming the file, line and key and how to fix it; the run goes on
/// with the other cases and the report says which failed and why.
@Suite struct GoldenFileTests {
    private static let suiteJSON = """
    {"name": "goldens", "paths": ["legacy"], "cases": [
      {"id": "c1", "audio": "c1.wav", "golden": true},
      {"id": "c2", "audio": "c2.wav", "golden": true},
      {"id": "c4", "audio": "c4.wav", "golden": true},
      {"id": "c5", "audio": "c5.wav", "golden": true}
    ]}
    """

    /// A suite with goldens recorded, then `damage` applied to `goldens/`.
    private func run(damage: (URL) throws -> Void) async throws -> (SuiteResult, URL) {
        let folder = try SuiteFixtures.folder(Self.suiteJSON)
        let suite = try MigrationSuite(contentsOf: folder)
        let runner = MigrationSuiteRunner(suite: suite, recognize: SuiteFixtures.recognize)
        _ = try await runner.recordGoldens()
        try damage(folder.appendingPathComponent("goldens"))
        return (await runner.run(), folder)
    }

    private func message(_ result: SuiteResult, _ id: String, folder: URL) -> String? {
        result.cases.first { $0.id == id }?.failures.first?.message
            .replacingOccurrences(of: folder.path + "/", with: "")
    }

    @Test("missing, malformed, wrong-typed and wrong-path goldens each fail their case; the others pass")
    func damagedGoldensFailTheirCasesOnly() async throws {
        let (result, folder) = try await run { goldens in
            try FileManager.default.removeItem(at: goldens.appendingPathComponent("c1.legacy.json"))
            try "{\n  \"path\": \"legacy\",\n  \"transcript\": \"x\"\n  \"words\": []\n}"
                .write(to: goldens.appendingPathComponent("c2.legacy.json"), atomically: true, encoding: .utf8)
            let c4 = goldens.appendingPathComponent("c4.legacy.json")
            try String(contentsOf: c4, encoding: .utf8).replacingOccurrences(of: "\"startSeconds\" : 0.5", with: "\"startSeconds\" : \"late\"")
                .write(to: c4, atomically: true, encoding: .utf8)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(result.cases.map(\.passed) == [false, false, false, true], "\(result.summary)")
        #expect(message(result, "c1", folder: folder) == "The golden goldens/c1.legacy.json does not exist: record it "
                + "with `speech record-golden \(folder.path)`.")
        #expect(message(result, "c2", folder: folder) == "goldens/c2.legacy.json line 4, column 3: not valid JSON: "
                + "expected ',' or '}' after the value of \"transcript\" (a missing comma?). Fix the JSON syntax there.")
        let c4 = try #require(message(result, "c4", folder: folder))
        #expect(c4.hasPrefix("goldens/c4.legacy.json line "), "\(c4)")
        #expect(c4.contains(", key words[1].startSeconds: expected a number, found a string. Give seconds from the start "
                            + "of the audio, a number of at least 0, or re-record the golden."), "\(c4)")
        #expect(result.summary.contains("✗ legacy: matches golden: The golden "))
        #expect(result.summary.hasSuffix("1/4 cases passed, 3 of 4 checks failed: FAILED"))
        #expect(JUnitReport.xml(for: result).contains("does not exist: record it with"))
    }

    @Test func goldenRecordedForAnotherPathIsRefused() async throws {
        let (result, folder) = try await run { goldens in
            let file = goldens.appendingPathComponent("c5.legacy.json")
            try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "\"path\" : \"legacy\"", with: "\"path\" : \"modern\"")
                .write(to: file, atomically: true, encoding: .utf8)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(message(result, "c5", folder: folder)?.hasPrefix("goldens/c5.legacy.json key path: the golden holds the "
                                                                 + "outcome of path modern, but this file is for legacy.") == true)
    }

    @Test func goldenWithANegativeTimeIsRefused() async throws {
        let (result, folder) = try await run { goldens in
            let file = goldens.appendingPathComponent("c5.legacy.json")
            try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "\"startSeconds\" : 1", with: "\"startSeconds\" : -1")
                .write(to: file, atomically: true, encoding: .utf8)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try #require(message(result, "c5", folder: folder))
        #expect(text.contains("key words[2].startSeconds: -1.0 must be a finite number of seconds, at least 0."), "\(text)")
    }

    @Test func goldenThatIsAFolderIsRefused() async throws {
        let (result, folder) = try await run { goldens in
            let file = goldens.appendingPathComponent("c5.legacy.json")
            try FileManager.default.removeItem(at: file)
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(message(result, "c5", folder: folder)?.hasPrefix("The golden goldens/c5.legacy.json is a folder, not a file") == true)
    }

    @Test func goldenThatIsAPipeIsRefusedWithoutBlocking() async throws {
        let (result, folder) = try await run { goldens in
            let file = goldens.appendingPathComponent("c5.legacy.json")
            try FileManager.default.removeItem(at: file)
            #expect(mkfifo(file.path, 0o644) == 0)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(message(result, "c5", folder: folder)?.hasPrefix("The golden goldens/c5.legacy.json is not a regular file (a pipe or device?)") == true)
    }

    @Test func goldenReadDirectlyGivesTheInvalidGoldenCode() throws {
        let folder = try SuiteFixtures.folder("{}")
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: MigrationError.self) {
            _ = try GoldenFile.read(folder.appendingPathComponent("suite.json"), path: .legacy)
        }
        #expect(error.code == .invalidGolden && error.key == "(top level)")
        #expect(error.message.hasSuffix("suite.json line 1, key (top level): the required key \"path\" is missing. It names the recognition path: legacy, modern, legacy-over-modern, modern-over-legacy, batch."))
    }
}
