import Foundation
import SpeechEvaluation
import SpeechMigration
import Testing
import TestSupport
@testable import SpeechCLI

/// `speech merge` on shard reports built here, and `--shard` on
/// `migrate-test` and `eval`: outputs, exit statuses and messages.
@Suite struct MergeCommandTests {
    func run(_ arguments: [String]) async -> (SpeechCLI.ExitStatus, String, String) {
        let (console, captured) = Console.capturing()
        let status = await SpeechTool.main(arguments, console: console)
        return (status, captured.standardOutput, captured.standardError)
    }

    /// A whole run of a 7-case suite (case 3 fails) and its shard reports as files.
    struct Fixture {
        var folder: URL
        var whole: SuiteResult
        var shardFiles: [String]
    }

    func makeFixture(shards count: Int, failing: Bool = true, name: String = "cli-suite") throws -> Fixture {
        let folder = try Fixtures.temporaryDirectory("speech-merge")
        let cases = (0..<7).map { number in
            let passed = !(failing && number == 3)
            let outcome = RecognitionOutcome(path: .legacy, transcript: "clip \(number)", words: [
                TimedWord(text: "clip", startSeconds: 0, durationSeconds: 0.3, confidence: 0.9),
            ], events: ["finalResult"])
            return SuiteCaseResult(id: "clip-\(number)", audio: "clip-\(number).wav", outcomes: [outcome], checks: [
                SuiteCheck(name: "legacy: WER vs reference ≤ 0.200", passed: passed, message: passed ? "WER 0.000" : "WER 1.000"),
            ])
        }
        let whole = SuiteResult(name: name, paths: [.legacy], cases: cases)
        var files: [String] = []
        for index in 1...count {
            let shard = try Shard(index: index, count: count)
            let part = SuiteResult(name: name, paths: [.legacy], cases: cases.filter { shard.contains(id: $0.id) },
                                   shard: SuiteShardInfo(shard: shard, suiteCaseIDs: cases.map(\.id)))
            let url = folder.appendingPathComponent("shard-\(index).json")
            try part.jsonData().write(to: url)
            files.append(url.path)
        }
        return Fixture(folder: folder, whole: whole, shardFiles: files)
    }

    @Test("merging 3 shard reports writes the JSON and JUnit of the whole run; a failed check exits 1")
    func mergeWritesTheWholeRunsReports() async throws {
        let fixture = try makeFixture(shards: 3)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let json = fixture.folder.appendingPathComponent("merged.json"), junit = fixture.folder.appendingPathComponent("merged.xml")
        let (status, output, error) = await run(["merge"] + fixture.shardFiles.reversed()
                                                + ["--shards", "3", "--json", json.path, "--junit", junit.path])
        #expect(status == .failure)
        #expect(try Data(contentsOf: json) == fixture.whole.jsonData())
        #expect(try String(contentsOf: junit, encoding: .utf8) == JUnitReport.xml(for: fixture.whole))
        #expect(output == fixture.whole.summary + "\n")
        #expect(error.contains("Merged 3 reports of suite cli-suite: 7 cases."))
        #expect(error.hasSuffix("Error: Suite cli-suite failed: 1 of 7 checks failed.\n"))
    }

    @Test func mergeFormatJSONPrintsTheMergedReportAndPassingExitsZero() async throws {
        let fixture = try makeFixture(shards: 2, failing: false)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let (status, output, _) = await run(["merge"] + fixture.shardFiles + ["--format", "json"])
        #expect(status == .success)
        #expect(output == String(decoding: try fixture.whole.jsonData(), as: UTF8.self) + "\n")
    }

    @Test func overlappingReportsExit1NamingTheCase() async throws {
        let fixture = try makeFixture(shards: 2)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let copy = fixture.folder.appendingPathComponent("copy.json")
        try FileManager.default.copyItem(atPath: fixture.shardFiles[0], toPath: copy.path)
        let (status, output, error) = await run(["merge", fixture.shardFiles[0], copy.path, fixture.shardFiles[1]])
        #expect(status == .failure && output.isEmpty)
        #expect(error.contains("Error: \(fixture.shardFiles[0]) and \(copy.path) are both shard 1/2 of suite cli-suite"))
        #expect(!error.contains("Usage:"))
    }

    @Test func reportsOfDifferentSuitesExit1() async throws {
        let one = try makeFixture(shards: 2), other = try makeFixture(shards: 2, name: "other-suite")
        defer { try? FileManager.default.removeItem(at: one.folder); try? FileManager.default.removeItem(at: other.folder) }
        let (status, _, error) = await run(["merge", one.shardFiles[0], other.shardFiles[1]])
        #expect(status == .failure)
        #expect(error.contains("is a report of suite 'other-suite' but \(one.shardFiles[0]) of suite 'cli-suite'"))
    }

    @Test func missingShardExit1WhenToldN() async throws {
        let fixture = try makeFixture(shards: 3)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let (status, _, error) = await run(["merge", fixture.shardFiles[0], fixture.shardFiles[2], "--shards", "3"])
        #expect(status == .failure)
        #expect(error.contains("Error: Missing shard 2/3 of suite cli-suite: give the report of every shard, 1 to 3"))
        let (wrongCount, _, countError) = await run(["merge"] + fixture.shardFiles + ["--shards", "4"])
        #expect(wrongCount == .failure && countError.contains("but 4 shards were expected"))
    }

    @Test func junitInputIsRefusedWithTheWayToMerge() async throws {
        let fixture = try makeFixture(shards: 2)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let xml = fixture.folder.appendingPathComponent("shard-1.xml")
        try JUnitReport.xml(for: fixture.whole).write(to: xml, atomically: true, encoding: .utf8)
        let (status, _, error) = await run(["merge", xml.path, fixture.shardFiles[1]])
        #expect(status == .failure)
        #expect(error.contains("is XML (a JUnit report?): merge reads the JSON reports of 'speech migrate-test --json'"))
    }

    @Test func malformedReportNamesTheLine() async throws {
        let fixture = try makeFixture(shards: 2)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        try "{\"name\": \"x\",\n\"paths\": legacy}".write(toFile: fixture.shardFiles[1], atomically: true, encoding: .utf8)
        let (status, _, error) = await run(["merge"] + fixture.shardFiles)
        #expect(status == .failure)
        #expect(error.contains("\(fixture.shardFiles[1]) line 2, column 10: not valid JSON: expected a value"), "\(error)")
    }

    @Test("merge usage mistakes exit 64 with the usage line", arguments: [
        (["merge"], "Missing expected argument '<report.json>'."),
        (["merge", "a.json", "--shards", "0"], "The value '0' for '--shards' must be a whole number from 1 to 10000."),
        (["merge", "a.json", "--shards", "two"], "The value 'two' for '--shards' must be a whole number from 1 to 10000."),
        (["merge", "a.json", "--format", "xml"], "The value 'xml' for '--format' must be one of: text, json."),
        (["merge", "a.json", "a.json"], "The report 'a.json' is given twice; give each shard's report once."),
    ])
    func mergeUsageMistakes(_ arguments: [String], _ message: String) async {
        let (status, _, error) = await run(arguments)
        #expect(status == .usage)
        #expect(error.hasPrefix("Error: \(message)\nUsage: speech merge <report.json>..."), "\(error)")
        #expect(error.hasSuffix("See 'speech merge --help' for more information.\n"))
    }

    @Test("--shard mistakes on migrate-test and eval exit 64 naming the value", arguments: [
        ("0/4", "the shard index 0 must be from 1 to 4 (shards count from 1)."),
        ("5/4", "the shard index 5 must be from 1 to 4 (shards count from 1)."),
        ("1/0", "the shard count 0 must be from 1 to 10000."),
        ("two/4", "expected I/N, two whole numbers such as 2/4 (the second of four shards)."),
        ("2", "expected I/N, two whole numbers such as 2/4 (the second of four shards)."),
    ])
    func shardUsageMistakes(_ value: String, _ message: String) async {
        for command in [["migrate-test", "suite"], ["eval", "manifest.tsv"]] {
            let (status, _, error) = await run(command + ["--shard", value])
            #expect(status == .usage, "\(command)")
            #expect(error.hasPrefix("Error: The value '\(value)' for '--shard' is invalid: \(message)\nUsage: speech \(command[0]) "),
                    "\(error)")
        }
        #expect(await run(["migrate-test", "suite", "--shard"]).2.hasPrefix("Error: Missing value for '--shard <I/N>'."))
    }

    @Test("eval --shard scores only its shard's clips; the shards together are the whole manifest")
    func evalShardsPartitionTheManifest() async throws {
        let folder = try Fixtures.temporaryDirectory("speech-eval-shard")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.tsv"), hypotheses = folder.appendingPathComponent("hyp.tsv")
        let ids = (0..<12).map { "clip-\($0)" }
        try ("id\tset\tlanguage\tpath\treference_text\n" + ids.map { "\($0)\ts\ten\t\($0).wav\tred green\n" }.joined())
            .write(to: manifest, atomically: true, encoding: .utf8)
        try ids.map { "\($0)\tred green\n" }.joined().write(to: hypotheses, atomically: true, encoding: .utf8)
        var seen: [String] = []
        for index in 1...3 {
            let (status, output, error) = await run(["eval", manifest.path, "--score", hypotheses.path,
                                                     "--shard", "\(index)/3", "--format", "json"])
            #expect(status == .success, "\(error)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            let clips = try #require(object["clips"] as? [[String: Any]]).compactMap { $0["id"] as? String }
            #expect(clips == ids.filter { Shard.index(of: $0, count: 3) == index })
            seen += clips
        }
        #expect(seen.sorted() == ids.sorted())
    }

    @Test func helpListsMergeAndTheShardOptions() async {
        #expect(await run(["help"]).1.contains("  merge                   Merge the JSON reports of a sharded migration suite run"))
        #expect(await run(["help", "migrate-test"]).1.contains("  --shard <I/N>           Run only shard I of N"))
        #expect(await run(["help", "migrate-test"]).1.contains("  --allow-outside-suite   Let case ids, audio and golden paths"))
        #expect(await run(["help", "record-golden"]).1.contains("--allow-outside-suite"))
        #expect(await run(["eval", "--help"]).1.contains("  --shard <I/N>"))
        #expect(await run(["merge", "--help"]).1.hasPrefix("OVERVIEW: Merge the JSON reports"))
    }
}
