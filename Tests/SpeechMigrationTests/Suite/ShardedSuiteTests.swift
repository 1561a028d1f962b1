import Foundation
import SpeechEvaluation
import SpeechMigration
import Testing

/// `migrate-test --shard I/N` and `speech merge` at the library level: a
/// suite run on N shards and merged gives the report of a run on one, byte
/// for byte, in JSON and JUnit; inconsistent shard reports are refused.
@Suite struct ShardedSuiteTests {
    private func runner(_ folder: URL) throws -> MigrationSuiteRunner {
        MigrationSuiteRunner(suite: try MigrationSuite(contentsOf: folder), recognize: SuiteFixtures.recognize)
    }

    /// Runs every shard of `count` and returns the reports, labelled.
    private func shardReports(_ runner: MigrationSuiteRunner, count: Int) async throws -> [SuiteResult.ShardReport] {
        var reports: [SuiteResult.ShardReport] = []
        for index in 1...count {
            let result = await runner.run(shard: try Shard(index: index, count: count))
            // Through JSON, as CI hands the files from the shard jobs to the merge job.
            let decoded = try JSONDecoder().decode(SuiteResult.self, from: try result.jsonData())
            reports.append(("shard-\(index).json", decoded))
        }
        return reports
    }

    @Test("a 9-case suite on 1 to 5 shards merges into the report of one run, in JSON and JUnit")
    func shardedRunsMergeIntoTheWholeRun() async throws {
        let folder = try SuiteFixtures.folder(SuiteFixtures.shardableSuite(count: 9))
        defer { try? FileManager.default.removeItem(at: folder) }
        let runner = try runner(folder)
        _ = try await runner.recordGoldens()
        let whole = await runner.run()
        #expect(whole.cases.filter { !$0.passed }.map(\.id) == ["c0", "c3", "c6"], "every third case fails on modern")
        for count in 1...5 {
            var reports = try await shardReports(runner, count: count)
            #expect(reports.map(\.result.cases.count).reduce(0, +) == 9)
            reports.reverse()  // the merge job may list the files in any order
            let merged = try SuiteResult.merging(reports, expectedShardCount: count)
            #expect(try merged.jsonData() == whole.jsonData(), "\(count) shards")
            #expect(JUnitReport.xml(for: merged) == JUnitReport.xml(for: whole), "\(count) shards")
            #expect(merged.summary == whole.summary)
        }
    }

    @Test("a shard's report records the shard and the suite's case list; a whole run records none")
    func shardReportRecordsTheShard() async throws {
        let folder = try SuiteFixtures.folder(SuiteFixtures.shardableSuite(count: 4))
        defer { try? FileManager.default.removeItem(at: folder) }
        let runner = try runner(folder)
        let part = await runner.run(shard: try Shard(parsing: "2/3"))
        #expect(part.shard == SuiteShardInfo(shard: try Shard(index: 2, count: 3), suiteCaseIDs: ["c0", "c1", "c2", "c3"]))
        #expect(part.cases.map(\.id) == ["c0", "c1", "c2", "c3"].filter { Shard.index(of: $0, count: 3) == 2 })
        #expect(part.summary.hasPrefix("Suite shardable shard 2/3 (paths: legacy, modern)"))
        let whole = await runner.run(shard: .whole)
        #expect(whole.shard == nil)
        #expect(!String(decoding: try whole.jsonData(), as: UTF8.self).contains("\"shard\""))
    }

    // MARK: Inconsistent reports, each named after what is wrong with it

    private func reports(count: Int, cases: Int = 6) async throws -> [SuiteResult.ShardReport] {
        let folder = try SuiteFixtures.folder(SuiteFixtures.shardableSuite(count: cases))
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await shardReports(try runner(folder), count: count)
    }

    private func mergeError(_ reports: [SuiteResult.ShardReport], expected: Int? = nil) throws -> MigrationError {
        try #require(throws: MigrationError.self) { try SuiteResult.merging(reports, expectedShardCount: expected) }
    }

    @Test func overlappingShardsAreRefused() async throws {
        var reports = try await reports(count: 2)
        let stolen = try #require(reports[1].result.cases.first)
        reports[0].result.cases.append(stolen)
        let error = try mergeError(reports)
        #expect(error.code == .inconsistentReports)
        #expect(error.message.hasPrefix("shard-1.json is shard 1/2 but has case '\(stolen.id)', which belongs to shard 2/2"))
        // The same case in two copies of its own shard's report.
        var twice = try await self.reports(count: 2)
        twice.append(("copy.json", twice[1].result))
        #expect(try mergeError(twice).message == "shard-2.json and copy.json are both shard 2/2 of suite shardable: "
                + "give each shard's report once.")
    }

    @Test func aCaseListedTwiceInOneReportIsAnOverlap() async throws {
        var reports = try await reports(count: 2)
        reports[0].result.cases.append(reports[0].result.cases[0])
        let error = try mergeError(reports)
        #expect(error.code == .inconsistentReports)
        #expect(error.message == "Case '\(reports[0].result.cases[0].id)' appears twice in shard-1.json: the report "
                + "was edited or damaged; run that shard again.")
    }

    @Test func reportsOfDifferentSuitesAreRefused() async throws {
        var reports = try await reports(count: 2)
        reports[1].result.name = "other"
        let error = try mergeError(reports)
        #expect(error.code == .inconsistentReports)
        #expect(error.message == "shard-2.json is a report of suite 'other' but shard-1.json of suite 'shardable': "
                + "merge the shards of one suite at a time.")
    }

    @Test func reportsOfDifferentPathsAreRefused() async throws {
        var reports = try await reports(count: 2)
        reports[1].result.paths = [.legacy]
        #expect(try mergeError(reports).message.hasPrefix("shard-2.json ran paths legacy but shard-1.json ran legacy, modern"))
    }

    @Test func reportsOfDifferentShardCountsAreRefused() async throws {
        let halves = try await reports(count: 2)
        let thirds = try await reports(count: 3)
        let error = try mergeError([halves[0], thirds[1]])
        #expect(error.code == .inconsistentReports)
        #expect(error.message.contains("shard-2.json is shard 2/3 but shard-1.json is shard 1/2"))
    }

    @Test func aMissingShardIsRefused() async throws {
        let reports = try await reports(count: 3)
        let error = try mergeError([reports[0], reports[2]])
        #expect(error.code == .inconsistentReports)
        #expect(error.message.hasPrefix("Missing shard 2/3 of suite shardable: give the report of every shard, 1 to 3"))
    }

    @Test func aShardCountOtherThanTheExpectedOneIsRefused() async throws {
        let reports = try await reports(count: 3)
        let error = try mergeError(reports, expected: 4)
        #expect(error.message.hasPrefix("shard-1.json is shard 1/3, but 4 shards were expected"))
        // Told 1 and given a whole run's report: fine.
        let whole = try await self.reports(count: 1)
        #expect(try SuiteResult.merging(whole, expectedShardCount: 1).cases.count == 6)
    }

    @Test func aReportMissingOneOfItsCasesIsRefused() async throws {
        var reports = try await reports(count: 2)
        let dropped = reports[0].result.cases.removeLast()
        let error = try mergeError(reports)
        #expect(error.message == "Case '\(dropped.id)' of shard 1/2 is missing from shard-1.json: the report is "
                + "incomplete; run that shard again.")
    }

    @Test func shardsOfAChangedSuiteAreRefused() async throws {
        let before = try await reports(count: 2, cases: 6)
        let after = try await reports(count: 2, cases: 7)
        let error = try mergeError([before[0], after[1]])
        #expect(error.message.contains("list different cases for suite shardable (suite.json changed between the shard runs?)"))
    }

    @Test func aDamagedShardRecordIsRefused() async throws {
        var reports = try await reports(count: 2)
        reports[0].result.shard?.index = 0
        #expect(try mergeError(reports).message.hasPrefix("shard-1.json records shard 0/2: the shard index 0 must be from 1 to 2"))
        #expect(try mergeError([]).message.hasPrefix("No reports to merge"))
    }

    @Test func aMalformedReportFileNamesTheLineAndKey() throws {
        let folder = try SuiteFixtures.folder("{}")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("shard-1.json")
        try #"{"name": "x",\#n "paths": ["legacy"],\#n "cases": 3}"#.write(to: report, atomically: true, encoding: .utf8)
        let error = try #require(throws: MigrationError.self) { try SuiteResult(contentsOf: report) }
        #expect(error.code == .inconsistentReports)
        #expect(error.message.hasPrefix("\(report.path) line 3, key cases: expected a list in [ ], found a number."))
        let missing = try #require(throws: MigrationError.self) {
            try SuiteResult(contentsOf: folder.appendingPathComponent("nope.json"))
        }
        #expect(missing.message.hasSuffix("nope.json cannot be read; check the path."))
    }
}
