import Foundation
import SpeechMigration
import Testing

/// Every path a suite names stays inside the suite (issue 16, security): a
/// suite from an untrusted pull request must not make `record-golden` write,
/// or `migrate-test` read, anywhere else. Each test is named after the input.
@Suite struct SuitePathTests {
    /// A suite folder inside a parent folder (so "outside" is still a temp folder).
    private func makeSuite(_ json: String) throws -> (suite: URL, parent: URL) {
        let parent = try SuiteFixtures.folder("{}")
        let suite = parent.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
        try json.write(to: suite.appendingPathComponent("suite.json"), atomically: true, encoding: .utf8)
        return (suite, parent)
    }

    private func loadError(_ suite: URL) throws -> MigrationError {
        try #require(throws: MigrationError.self) { _ = try MigrationSuite(contentsOf: suite) }
    }

    @Test func caseIDWithDotDotIsRefusedAndRecordGoldenWritesNothing() async throws {
        let (folder, parent) = try makeSuite(#"{"name": "s", "paths": ["legacy"], "cases": [{"id": "../../evil", "audio": "c1.wav", "golden": true}]}"#)
        defer { try? FileManager.default.removeItem(at: parent) }
        let error = try loadError(folder)
        #expect(error.code == .pathOutsideSuite)
        #expect(error.key == "cases[0].id" && error.value == "../../evil")
        #expect(error.message.hasPrefix(#"Suite s, key cases[0].id: the case id "../../evil" names the golden goldens/../../evil.legacy.json, which resolves to "#))
        #expect(error.message.contains("--allow-outside-suite"))
        // An in-memory suite with the same id: the runner refuses to record, and writes nothing.
        let suite = MigrationSuite(name: "s", folder: folder, paths: [.legacy],
                                   cases: [SuiteCase(id: "../../evil", audio: "c1.wav", golden: true)])
        let runner = MigrationSuiteRunner(suite: suite, recognize: SuiteFixtures.recognize)
        let refused = try await #require(throws: MigrationError.self) { _ = try await runner.recordGoldens() }
        #expect(refused.code == .pathOutsideSuite)
        #expect(!FileManager.default.fileExists(atPath: parent.deletingLastPathComponent().appendingPathComponent("evil.legacy.json").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("goldens").path))
        // And migrate-test turns it into a failed check of that case only.
        let result = await runner.run()
        #expect(result.cases[0].checks.map(\.name) == ["suite: case definition"])
    }

    @Test func audioWithDotDotIsRefused() throws {
        let (folder, parent) = try makeSuite(#"{"name": "s", "cases": [{"id": "a", "audio": "../c1.wav", "reference": "x"}]}"#)
        defer { try? FileManager.default.removeItem(at: parent) }
        let error = try loadError(folder)
        #expect(error.code == .pathOutsideSuite && error.key == "cases[0].audio" && error.value == "../c1.wav")
        #expect(error.message.contains(#"the audio "../c1.wav" resolves to \#(parent.path)/c1.wav, outside the suite folder"#),
                "\(error.message)")
    }

    @Test func absoluteAudioOutsideTheSuiteIsRefused() throws {
        let (folder, parent) = try makeSuite(#"{"name": "s", "cases": [{"id": "a", "audio": "/etc/passwd", "reference": "x"}]}"#)
        defer { try? FileManager.default.removeItem(at: parent) }
        let error = try loadError(folder)
        #expect(error.code == .pathOutsideSuite && error.value == "/etc/passwd")
        #expect(error.message.contains("resolves to /etc/passwd, outside the suite folder"))
    }

    @Test func audioThroughASymlinkOutOfTheSuiteIsRefused() throws {
        let (folder, parent) = try makeSuite(#"{"name": "s", "cases": [{"id": "a", "audio": "clips/../c1.wav", "reference": "x"}]}"#)
        defer { try? FileManager.default.removeItem(at: parent) }
        // clips -> /tmp/…/outside/deep: "clips/.." is then outside/, as the kernel resolves it.
        let deep = parent.appendingPathComponent("outside/deep")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("clips").path, withDestinationPath: deep.path)
        let error = try loadError(folder)
        #expect(error.code == .pathOutsideSuite)
        #expect(error.message.contains("resolves to \(parent.path)/outside/c1.wav"), "\(error.message)")
    }

    @Test func goldensFolderSymlinkedOutOfTheSuiteIsRefused() async throws {
        let (folder, parent) = try makeSuite(#"{"name": "s", "paths": ["legacy"], "cases": [{"id": "c1", "audio": "c1.wav", "golden": true}]}"#)
        defer { try? FileManager.default.removeItem(at: parent) }
        let outside = parent.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("goldens").path, withDestinationPath: outside.path)
        let error = try loadError(folder)
        #expect(error.code == .pathOutsideSuite && error.key == "cases[0].id")
        #expect(error.message.contains("which resolves to \(outside.path)/c1.legacy.json, outside"))
    }

    @Test func danglingGoldenSymlinkPointingOutsideIsRefused() async throws {
        let (folder, parent) = try makeSuite(#"{"name": "s", "paths": ["legacy"], "cases": [{"id": "c1", "audio": "c1.wav", "golden": true}]}"#)
        defer { try? FileManager.default.removeItem(at: parent) }
        let goldens = folder.appendingPathComponent("goldens")
        try FileManager.default.createDirectory(at: goldens, withIntermediateDirectories: true)
        let target = parent.appendingPathComponent("planted.json")
        try FileManager.default.createSymbolicLink(atPath: goldens.appendingPathComponent("c1.legacy.json").path,
                                                   withDestinationPath: target.path)
        let error = try loadError(folder)
        #expect(error.code == .pathOutsideSuite)
        let suite = MigrationSuite(name: "s", folder: folder, paths: [.legacy],
                                   cases: [SuiteCase(id: "c1", audio: "c1.wav", golden: true)])
        _ = try? await MigrationSuiteRunner(suite: suite, recognize: SuiteFixtures.recognize).recordGoldens()
        #expect(!FileManager.default.fileExists(atPath: target.path), "nothing written through the link")
    }

    @Test func symlinkLoopIsAClearError() throws {
        let (folder, parent) = try makeSuite(#"{"name": "s", "cases": [{"id": "a", "audio": "loop/c1.wav", "reference": "x"}]}"#)
        defer { try? FileManager.default.removeItem(at: parent) }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop").path, withDestinationPath: "loop")
        let error = try loadError(folder)
        #expect(error.code == .pathOutsideSuite && error.key == "cases[0].audio")
        #expect(error.message.contains("goes through more than 40 symbolic links (a loop of links?)"))
    }

    @Test func corpusAudioEscapingTheCorpusIsRefused() throws {
        let (folder, parent) = try makeSuite(#"{"name": "s", "cases": [{"id": "a", "audio": "corpus:../../../etc/passwd", "reference": "x"}]}"#)
        defer { try? FileManager.default.removeItem(at: parent) }
        let error = try loadError(folder)
        #expect(error.code == .pathOutsideSuite && error.value == "corpus:../../../etc/passwd")
        #expect(error.message.contains("outside the corpus root"))
    }

    @Test func pathsInsideTheSuiteThroughInnerSymlinksAreAccepted() async throws {
        let (folder, parent) = try makeSuite(#"{"name": "s", "paths": ["legacy"], "cases": [{"id": "sub/c1", "audio": "link/c1.wav", "golden": true}]}"#)
        defer { try? FileManager.default.removeItem(at: parent) }
        let clips = folder.appendingPathComponent("clips")
        try FileManager.default.createDirectory(at: clips, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link").path, withDestinationPath: "clips")
        let suite = try MigrationSuite(contentsOf: folder)
        let written = try await MigrationSuiteRunner(suite: suite, recognize: SuiteFixtures.recognize).recordGoldens()
        #expect(written.map(\.lastPathComponent) == ["c1.legacy.json"])
        #expect(await MigrationSuiteRunner(suite: suite, recognize: SuiteFixtures.recognize).run().passed)
    }

    @Test func allowOutsideSuiteLetsATrustedSuiteReachOut() async throws {
        let (folder, parent) = try makeSuite(#"{"name": "s", "paths": ["legacy"], "cases": [{"id": "a", "audio": "../c1.wav", "reference": "case 1 said here"}]}"#)
        defer { try? FileManager.default.removeItem(at: parent) }
        let suite = try MigrationSuite(contentsOf: folder, allowsPathsOutsideSuite: true)
        let result = await MigrationSuiteRunner(suite: suite, recognize: SuiteFixtures.recognize).run()
        #expect(result.passed, "\(result.summary)")
    }
}
