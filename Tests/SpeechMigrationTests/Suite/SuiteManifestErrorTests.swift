import Foundation
import SpeechMigration
import Testing

/// Malformed `suite.json` files give "file line N, key K: what is wrong.
/// How to fix it." instead of a `DecodingError` dump, and bounds out of range
/// are refused (issue 16). Each test is named after the input.
@Suite struct SuiteManifestErrorTests {
    private func loadError(_ json: String) throws -> (MigrationError, String) {
        let folder = try SuiteFixtures.folder(json)
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: MigrationError.self) { _ = try MigrationSuite(contentsOf: folder) }
        #expect(!error.description.contains("DecodingError"), "no raw dump: \(error.description)")
        let manifest = folder.appendingPathComponent("suite.json").path
        return (error, error.message.replacingOccurrences(of: manifest, with: "suite.json"))
    }

    @Test func missingCommaGivesLineAndColumn() throws {
        let (error, message) = try loadError("{\n  \"name\": \"x\"\n  \"cases\": []\n}")
        #expect(error.code == .invalidSuite)
        #expect(message == "suite.json line 3, column 3: not valid JSON: expected ',' or '}' after the value of "
                + "\"name\" (a missing comma?). Fix the JSON syntax there.")
    }

    @Test func unclosedStringGivesTheLine() throws {
        let (_, message) = try loadError("{\"name\": \"x,\n \"cases\": []}")
        #expect(message.hasPrefix("suite.json line 1, column 13: not valid JSON: a string runs past the end of the line"))
    }

    @Test func emptyFileSaysSo() throws {
        let (_, message) = try loadError("")
        #expect(message.hasPrefix("suite.json line 1, column 1: not valid JSON: the file is empty"))
    }

    @Test func numberTooLargeIsRefused() throws {
        let (_, message) = try loadError("{\"name\": \"x\", \"cases\": [\n {\"id\": \"a\", \"audio\": \"a.wav\", \"reference\": \"r\", \"maximumWordErrorRate\": 1e400}]}")
        #expect(message.hasPrefix("suite.json line 2, column "))
        #expect(message.contains("the number 1e400 is too large to represent"))
    }

    @Test func stringWhereANumberBelongsNamesKeyLineAndFix() throws {
        let (error, message) = try loadError("""
        {"name": "x", "cases": [
          {"id": "a", "audio": "a.wav", "reference": "r"},
          {"id": "b", "audio": "b.wav", "reference": "r",
           "maximumWordErrorRate": "0.2"}
        ]}
        """)
        #expect(error.code == .invalidSuite)
        #expect(error.key == "cases[1].maximumWordErrorRate" && error.value == "\"0.2\"")
        #expect(message == "suite.json line 4, key cases[1].maximumWordErrorRate: expected a number, found a string. "
                + "Give the largest WER allowed against the reference, a number from 0 to 1, e.g. 0.2.")
    }

    @Test func missingAudioKeyIsNamed() throws {
        let (error, message) = try loadError("{\"name\": \"x\", \"cases\": [\n  {\"id\": \"a\", \"reference\": \"r\"}]}")
        #expect(error.key == "cases[0]")
        #expect(message == "suite.json line 2, key cases[0]: the required key \"audio\" is missing. Give the audio "
                + "file as a string: relative to the suite folder, or corpus:PATH.")
    }

    @Test func nullNameIsRefused() throws {
        let (_, message) = try loadError("{\"name\": null, \"cases\": []}")
        #expect(message.hasPrefix("suite.json line 1, key name: null is not allowed here; expected a string in double quotes."))
    }

    @Test func unknownPathNameListsTheChoices() throws {
        let (error, message) = try loadError("{\"name\": \"x\",\n \"paths\": [\"legacy\", \"old\"], \"cases\": []}")
        #expect(error.key == "paths[1]" && error.value == "\"old\"")
        #expect(message == "suite.json line 2, key paths[1]: \"old\" is not an accepted value. Give a list of paths, "
                + "baseline first, from: legacy, modern, legacy-over-modern, modern-over-legacy, batch.")
    }

    @Test func misspeltBoundKeyIsRefusedWithASuggestion() throws {
        let (error, message) = try loadError("{\"name\": \"x\", \"cases\": [\n {\"id\": \"a\", \"audio\": \"a.wav\", \"reference\": \"r\", \"maximumWordErorRate\": 0.1}]}")
        #expect(error.code == .invalidSuite && error.key == "cases[0].maximumWordErorRate")
        #expect(message.hasPrefix("suite.json line 2, key cases[0].maximumWordErorRate: unknown key \"maximumWordErorRate\". "
                                  + "Did you mean \"maximumWordErrorRate\"?"))
    }

    @Test func topLevelArrayIsRefused() throws {
        let (_, message) = try loadError("[]")
        #expect(message.hasPrefix("suite.json line 1, key (top level): expected an object in { }, found an array."))
    }

    // MARK: Bounds

    private func boundError(_ key: String, _ value: String, suiteLevel: Bool = false) throws -> (MigrationError, String) {
        let bound = "\"\(key)\": \(value)"
        return try loadError("""
        {"name": "x",\(suiteLevel ? " " + bound + "," : "")
         "cases": [{"id": "a", "audio": "a.wav", "reference": "r"\(suiteLevel ? "" : ", " + bound)}]}
        """)
    }

    @Test func werBoundOf1e308IsRefused() throws {
        let (error, message) = try boundError("maximumWordErrorRate", "1e308")
        #expect(error.code == .invalidSuite && error.key == "cases[0].maximumWordErrorRate" && error.value == "1e+308")
        #expect(message.hasPrefix("suite.json line 2, key cases[0].maximumWordErrorRate: 1e+308 is out of range; "
                                  + "a WER bound must be a finite number from 0 to 1."))
    }

    @Test func negativeWERBoundIsRefused() throws {
        let (error, message) = try boundError("maximumWordErrorRate", "-0.1")
        #expect(error.value == "-0.1" && message.contains("-0.1 is out of range; a WER bound must be a finite number from 0 to 1."))
    }

    @Test func werBoundAboveOneIsRefused() throws {
        let (_, message) = try boundError("crossPathMaximumWordErrorRate", "1.5")
        #expect(message.contains("key cases[0].crossPathMaximumWordErrorRate: 1.5 is out of range"))
    }

    @Test func suiteLevelCrossPathBoundOf1e308IsRefused() throws {
        let (error, message) = try boundError("crossPathMaximumWordErrorRate", "1e308", suiteLevel: true)
        #expect(error.key == "crossPathMaximumWordErrorRate")
        #expect(message.hasPrefix("suite.json line 1, key crossPathMaximumWordErrorRate: 1e+308 is out of range"))
    }

    @Test func negativeTimingToleranceIsRefused() throws {
        let (_, message) = try boundError("timingToleranceSeconds", "-1")
        #expect(message.contains("key cases[0].timingToleranceSeconds: -1.0 is out of range; a timing tolerance must "
                                 + "be a finite number from 0 to 10."))
    }

    @Test func boundsAtTheEdgesAreAccepted() throws {
        let folder = try SuiteFixtures.folder(#"{"name": "x", "crossPathMaximumWordErrorRate": 1, "cases": [{"id": "a", "audio": "a.wav", "reference": "r", "maximumWordErrorRate": 0, "timingToleranceSeconds": 10}]}"#)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try MigrationSuite(contentsOf: folder).cases.count == 1)
    }

    @Test("a NaN or 1e308 bound in an in-memory suite fails its case, and a wrong reference never passes")
    func nonFiniteBoundInMemoryFailsTheCase() async throws {
        let folder = URL(fileURLWithPath: "/tmp")
        for bound in [Double.nan, .infinity, 1e308, -1] {
            let suite = MigrationSuite(name: "m", folder: folder, paths: [.legacy], cases: [
                SuiteCase(id: "wrong", audio: "c1.wav", reference: "something else entirely", maximumWordErrorRate: bound),
                SuiteCase(id: "right", audio: "c2.wav", reference: "case 2 said here"),
            ])
            #expect(throws: MigrationError.self) { try suite.validate() }
            let result = await MigrationSuiteRunner(suite: suite, recognize: SuiteFixtures.recognize).run()
            #expect(!result.cases[0].passed && result.cases[1].passed, "bound \(bound)")
            #expect(result.cases[0].checks.first?.message.contains("is out of range; a WER bound must be a finite number from 0 to 1") == true)
        }
    }

    @Test func emptyCaseIDIsRefused() throws {
        let (error, message) = try loadError(#"{"name": "x", "cases": [{"id": "", "audio": "a.wav", "reference": "r"}]}"#)
        #expect(error.key == "cases[0].id")
        #expect(message.hasPrefix("suite.json line 1, key cases[0].id: the case id \"\" is empty or holds control characters."))
    }

    @Test func duplicateCaseIDIsRefused() throws {
        let (error, message) = try loadError("{\"name\": \"x\", \"cases\": [{\"id\": \"a\", \"audio\": \"a.wav\", \"reference\": \"r\"},\n{\"id\": \"a\", \"audio\": \"b.wav\", \"reference\": \"r\"}]}")
        #expect(error.key == "cases[1].id" && error.value == "a")
        #expect(message == "suite.json line 2, key cases[1].id: the case id 'a' appears twice. Give each case a unique id.")
    }
}
