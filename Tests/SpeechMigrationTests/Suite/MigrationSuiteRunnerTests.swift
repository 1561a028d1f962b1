import Foundation
import SpeechMigration
import Testing

/// Suites run on a recorded stand-in for the faces (the real faces run in
/// `MigrationModelTests`): what is checked here is the runner's logic.
@Suite struct MigrationSuiteRunnerTests {
    /// What each path "recognizes" per file name.
    static let transcripts: [String: [RecognitionPath: String]] = [
        "goforward.wav": [.legacy: "go forward ten meters", .modern: "Go forward, 10 meters."],
        "cards.wav": [.legacy: "red green blue", .modern: "red green blew"],
    ]

    static func recognize(_ path: RecognitionPath, _ url: URL) async throws -> RecognitionOutcome {
        guard let text = transcripts[url.lastPathComponent]?[path] else {
            throw MigrationError(.audioUnreadable, "The audio file \(url.path) does not exist or cannot be read.")
        }
        return OutcomeFixtures.outcome(path, text)
    }

    private func makeSuite(_ json: String) throws -> (MigrationSuite, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("suite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try json.write(to: folder.appendingPathComponent("suite.json"), atomically: true, encoding: .utf8)
        return (try MigrationSuite(contentsOf: folder), folder)
    }

    @Test("reference, cross-path and golden expectations pass; output is deterministic")
    func passingSuite() async throws {
        let (suite, folder) = try makeSuite("""
        {"name": "smoke", "cases": [
          {"id": "goforward", "audio": "goforward.wav", "reference": "GO FORWARD TEN METERS", "maximumWordErrorRate": 0},
          {"id": "cards", "audio": "cards.wav", "golden": true, "crossPathMaximumWordErrorRate": 0.34}
        ]}
        """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let runner = MigrationSuiteRunner(suite: suite, recognize: Self.recognize)
        let written = try await runner.recordGoldens()
        #expect(written.map(\.lastPathComponent) == ["cards.legacy.json", "cards.modern.json"])
        let result = await runner.run()
        #expect(result.passed, "\(result.summary)")
        #expect(result.checkCount == 6)
        let again = await runner.run()
        #expect(try again.jsonData() == result.jsonData())
        #expect(JUnitReport.xml(for: again) == JUnitReport.xml(for: result))
        #expect(result.summary.hasSuffix("2/2 cases passed, 0 of 6 checks failed: PASSED"))
    }

    @Test("a deliberately broken expectation fails with the WER, the bound and the word diff")
    func brokenExpectation() async throws {
        let (suite, folder) = try makeSuite("""
        {"name": "broken", "paths": ["legacy", "modern"], "cases": [
          {"id": "goforward", "audio": "goforward.wav", "reference": "go backward ten meters", "maximumWordErrorRate": 0.1}
        ]}
        """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = await MigrationSuiteRunner(suite: suite, recognize: Self.recognize).run()
        #expect(!result.passed)
        #expect(result.failureCount == 2)
        let failure = try #require(result.cases[0].failures.first)
        #expect(failure.name == "legacy: WER vs reference ≤ 0.100")
        #expect(failure.message == "WER 0.250; diff vs reference: go [-backward-]{+forward+} 10 meters")
        #expect(result.summary.contains("FAIL goforward"))
        #expect(result.summary.hasSuffix("0/1 cases passed, 2 of 3 checks failed: FAILED"))
        let xml = JUnitReport.xml(for: result)
        #expect(xml.contains(#"<testsuite name="broken" tests="3" failures="2""#))
        #expect(xml.contains(#"<failure message="WER 0.250; diff vs reference: go [-backward-]{+forward+} 10 meters">"#))
    }

    @Test("a changed result no longer matches its golden; a missing golden says how to record it")
    func goldenMismatch() async throws {
        let (suite, folder) = try makeSuite("""
        {"name": "goldens", "paths": ["legacy"], "cases": [{"id": "cards", "audio": "cards.wav", "golden": true}]}
        """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = await MigrationSuiteRunner(suite: suite, recognize: Self.recognize).run()
        #expect(missing.cases[0].failures.first?.message.contains("speech record-golden") == true)
        _ = try await MigrationSuiteRunner(suite: suite, recognize: Self.recognize).recordGoldens()
        let changed = await MigrationSuiteRunner(suite: suite) { path, _ in
            OutcomeFixtures.outcome(path, "red green glue", shift: 0.2)
        }.run()
        let message = try #require(changed.cases[0].failures.first?.message)
        #expect(message.contains("[-blue-]{+glue+}") && message.contains("more than 0.050 s apart"))
    }

    @Test("an unreadable audio file is a failed check, not a crash")
    func unreadableAudio() async throws {
        let (suite, folder) = try makeSuite("""
        {"name": "missing", "cases": [{"id": "gone", "audio": "gone.wav", "reference": "x"}]}
        """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = await MigrationSuiteRunner(suite: suite, recognize: Self.recognize).run()
        #expect(!result.passed)
        #expect(result.cases[0].checks[0].message.contains("gone.wav does not exist"))
    }

    @Test("malformed manifests are typed errors naming the problem")
    func malformedManifests() throws {
        for (json, fragment) in [("{\"name\": \"x\", \"cases\": []}", "lists no cases"),
                                 ("{\"name\": \"x\", \"paths\": [\"legacy\"], \"cases\": [{\"id\": \"a\", \"audio\": \"a.wav\"}]}",
                                  "has no expectation"),
                                 ("{\"name\": 3}", "key name: expected a string in double quotes, found a number")] {
            let error = try #require(throws: MigrationError.self) { _ = try makeSuite(json) }
            #expect(error.code == .invalidSuite && error.message.contains(fragment), "\(error)")
        }
        let missing = try #require(throws: MigrationError.self) {
            try MigrationSuite(contentsOf: URL(fileURLWithPath: "/nonexistent/suite"))
        }
        #expect(missing.message.contains("No suite at"))
    }

    @Test("corpus: audio resolves against SPEECHCOMPAT_CORPUS or a shared/corpus beside the suite")
    func corpusPaths() {
        let item = SuiteCase(id: "a", audio: "corpus:audio/x.wav")
        let url = item.audioURL(suiteFolder: URL(fileURLWithPath: "/work/main/MigrationGuide/Suite"))
        #expect(url.path.hasSuffix("corpus/audio/x.wav"))
        #expect(SuiteCase(id: "b", audio: "/abs/y.wav").audioURL(suiteFolder: URL(fileURLWithPath: "/s")).path == "/abs/y.wav")
        #expect(SuiteCase(id: "c", audio: "../z.wav").audioURL(suiteFolder: URL(fileURLWithPath: "/s/t")).path == "/s/z.wav")
    }
}
