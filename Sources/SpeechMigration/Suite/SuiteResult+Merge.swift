import Foundation
import SpeechEvaluation

extension SuiteResult {
    /// One shard's report and where it came from (a file name, for errors).
    public typealias ShardReport = (source: String, result: SuiteResult)

    /// Combines the reports of a suite's shards into the report a whole run
    /// gives: the same name and paths, every case once, in manifest order,
    /// no shard record. Merged JSON and JUnit are byte-identical to a whole
    /// run's for the same outcomes (`speech merge`).
    ///
    /// A report without a shard record counts as shard 1/1.
    /// - Parameter expectedShardCount: the number of shards CI ran, when
    ///   known; a report of another count, or a missing shard, is refused.
    /// - Throws: `MigrationError` (`.inconsistentReports`) naming the files
    ///   when the reports are of different suites, paths, shard counts or
    ///   case lists, when two cover the same shard or case, when a case sits
    ///   in a shard that does not own it, or when a shard or case is missing.
    public static func merging(_ reports: [ShardReport], expectedShardCount: Int? = nil) throws -> SuiteResult {
        guard let first = reports.first else {
            throw inconsistent("No reports to merge: give the JSON report (`migrate-test --json`) of every shard.")
        }
        let reference = try shardInfo(of: first)
        if let expectedShardCount, expectedShardCount != reference.count {
            throw inconsistent("\(first.source) is shard \(reference.description), but \(expectedShardCount) shards "
                               + "were expected: give the reports of a run with --shard I/\(expectedShardCount).")
        }
        var sourceOfShard: [Int: String] = [:]
        var sourceOfCase: [String: String] = [:]
        var casesByID: [String: SuiteCaseResult] = [:]
        let known = Set(reference.suiteCaseIDs)
        for report in reports {
            let info = try shardInfo(of: report)
            try checkSameRun(report, info, as: first, reference)
            if let other = sourceOfShard.updateValue(report.source, forKey: info.index) {
                throw inconsistent("\(other) and \(report.source) are both shard \(info.description) of suite "
                                   + "\(report.result.name): give each shard's report once.")
            }
            for item in report.result.cases {
                guard known.contains(item.id) else {
                    throw inconsistent("\(report.source) has case '\(item.id)', which is not in suite "
                                       + "\(first.result.name)'s case list: give reports of one suite.")
                }
                let owner = Shard.index(of: item.id, count: info.count)
                guard owner == info.index else {
                    throw inconsistent("\(report.source) is shard \(info.description) but has case '\(item.id)', "
                                       + "which belongs to shard \(owner)/\(info.count): the report was not made by "
                                       + "`speech migrate-test --shard \(info.description)`.")
                }
                if let other = sourceOfCase.updateValue(report.source, forKey: item.id) {
                    guard other != report.source else {
                        throw inconsistent("Case '\(item.id)' appears twice in \(other): the report was edited or "
                                           + "damaged; run that shard again.")
                    }
                    throw inconsistent("Case '\(item.id)' is in both \(other) and \(report.source): the shards "
                                       + "overlap; give each shard's report once.")
                }
                casesByID[item.id] = item
            }
        }
        let missingShards = (1...reference.count).filter { sourceOfShard[$0] == nil }
        guard missingShards.isEmpty else {
            let names = missingShards.prefix(10).map { "\($0)/\(reference.count)" }.joined(separator: ", ")
            throw inconsistent("Missing \(missingShards.count == 1 ? "shard" : "shards") \(names)"
                               + (missingShards.count > 10 ? ", …" : "") + " of suite \(first.result.name): give the "
                               + "report of every shard, 1 to \(reference.count) (a shard with no cases still writes one).")
        }
        if let missing = reference.suiteCaseIDs.first(where: { casesByID[$0] == nil }) {
            let index = Shard.index(of: missing, count: reference.count)
            throw inconsistent("Case '\(missing)' of shard \(index)/\(reference.count) is missing from "
                               + "\(sourceOfShard[index] ?? "its report"): the report is incomplete; run that shard again.")
        }
        return SuiteResult(name: first.result.name, paths: first.result.paths,
                           cases: reference.suiteCaseIDs.compactMap { casesByID[$0] })
    }

    /// The report's shard record, or 1/1 over its own cases; checked.
    private static func shardInfo(of report: ShardReport) throws -> SuiteShardInfo {
        guard let info = report.result.shard else {
            return SuiteShardInfo(shard: .whole, suiteCaseIDs: report.result.cases.map(\.id))
        }
        do {
            _ = try Shard(index: info.index, count: info.count)
        } catch {
            throw inconsistent("\(report.source) records shard \(info.description): \(error.message)")
        }
        guard Set(info.suiteCaseIDs).count == info.suiteCaseIDs.count else {
            throw inconsistent("\(report.source) lists a case id twice in its suite case list: the report was edited "
                               + "or damaged; run that shard again.")
        }
        return info
    }

    /// Refuses a report from another suite, path list, shard count or suite version.
    private static func checkSameRun(_ report: ShardReport, _ info: SuiteShardInfo, as first: ShardReport,
                                     _ reference: SuiteShardInfo) throws {
        guard report.result.name == first.result.name else {
            throw inconsistent("\(report.source) is a report of suite '\(report.result.name)' but \(first.source) of "
                               + "suite '\(first.result.name)': merge the shards of one suite at a time.")
        }
        guard report.result.paths == first.result.paths else {
            throw inconsistent("\(report.source) ran paths \(report.result.paths.map(\.rawValue).joined(separator: ", "))"
                               + " but \(first.source) ran \(first.result.paths.map(\.rawValue).joined(separator: ", "))"
                               + ": run every shard on the same suite.json.")
        }
        guard info.count == reference.count else {
            throw inconsistent("\(report.source) is shard \(info.description) but \(first.source) is shard "
                               + "\(reference.description): every shard must come from a run with the same N in --shard I/N.")
        }
        guard info.suiteCaseIDs == reference.suiteCaseIDs else {
            throw inconsistent("\(report.source) and \(first.source) list different cases for suite "
                               + "\(first.result.name) (suite.json changed between the shard runs?): run every shard "
                               + "on the same suite.json.")
        }
    }

    private static func inconsistent(_ message: String) -> MigrationError {
        MigrationError(.inconsistentReports, message)
    }

    /// Reads a report written by `speech migrate-test --json` (or `merge --json`).
    /// - Throws: `MigrationError` (`.inconsistentReports`) naming the file, and
    ///   for malformed JSON the line and key.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw MigrationError(.inconsistentReports, "The report \(url.path) cannot be read; check the path.",
                                 underlying: error, value: url.path)
        }
        self = try SuiteJSONDecoding.decode(SuiteResult.self, from: data, file: url, code: .inconsistentReports,
                                            hints: [:], fix: "Give the JSON report written by "
                                                + "`speech migrate-test --json` (JUnit XML cannot be merged; it is "
                                                + "written again from the JSON reports with --junit).")
    }
}
