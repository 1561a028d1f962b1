import Foundation
import SpeechEvaluation
import SpeechMigration

/// `speech merge REPORT...`: combine the JSON reports of a migration suite's
/// shards (`migrate-test --shard I/N --json`) into the report of a whole
/// run, and write it as JSON and JUnit XML, byte-identical to what an
/// unsharded `migrate-test` writes.
struct MergeCommand: SpeechCommand {
    static let help = CommandHelp(
        commandName: "merge",
        overview: "Merge the JSON reports of a sharded migration suite run into one report.",
        usage: "merge <report.json>... [--shards <N>] [--json <out.json>] [--junit <out.xml>] [--format text|json]",
        arguments: [("<report.json>", "The report of each shard, written by\n'speech migrate-test <suite> --shard I/N --json <report.json>'.")],
        commandOptions: [
            .value("shards", "N", help: "The number of shards CI ran; refuse reports of another count\nor a missing shard."),
            .value("json", "out.json", help: "Write the merged report as JSON."),
            .value("junit", "out.xml", help: "Write the merged report as JUnit XML."),
            .value("format", "format", help: "Output: text (the summary) or json (the merged report)\n(default: text)."),
        ],
        discussion: """
        The merged report lists every case of the suite once, in suite.json
        order, as an unsharded run does. Merging refuses, naming the files:
        reports of different suites, paths or shard counts; two reports of
        one shard; a case in two reports or in a shard that does not own it;
        a missing shard or case. Give every shard's report, even a shard
        with no cases. JUnit files are not read: they are written again from
        the JSON reports.

        Exits 0 when every merged check passes, 1 when one fails or the
        reports do not fit together, 64 on a usage mistake.

        EXAMPLES:
          speech merge shard-1.json shard-2.json shard-3.json --shards 3 --junit suite.xml
          speech merge reports/*.json --format json > suite.json
        """)

    var reportPaths: [String]
    var shardCount: Int?
    var jsonPath: String?
    var junitPath: String?
    var json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        reportPaths = arguments.positionals
        shardCount = try arguments.integer("shards", in: 1...Shard.maximumCount)
        jsonPath = arguments.value("json")
        junitPath = arguments.value("junit")
        json = try arguments.choice("format", from: ["text", "json"]) == "json"
    }

    func validate() throws(UsageError) {
        guard !reportPaths.isEmpty else { throw UsageError("Missing expected argument '<report.json>'.") }
        if let duplicate = reportPaths.first(where: { path in reportPaths.filter { $0 == path }.count > 1 }) {
            throw UsageError("The report '\(duplicate)' is given twice; give each shard's report once.")
        }
    }

    func run(console: Console) async throws {
        var reports: [SuiteResult.ShardReport] = []
        for path in reportPaths {
            let url = URL(fileURLWithPath: path)
            if let head = try? FileHandle(forReadingFrom: url).read(upToCount: 64),
               String(decoding: head, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<") {
                throw MigrationError(.inconsistentReports, "\(path) is XML (a JUnit report?): merge reads the JSON "
                                     + "reports of 'speech migrate-test --json' and writes JUnit from them with --junit.")
            }
            reports.append((path, try SuiteResult(contentsOf: url)))
        }
        let merged = try SuiteResult.merging(reports, expectedShardCount: shardCount)
        console.log("Merged \(reports.count) reports of suite \(merged.name): \(merged.cases.count) cases.")
        try MigrateTestCommand.writeReports(merged, junitPath: junitPath, jsonPath: jsonPath)
        if json {
            console.print(String(decoding: try merged.jsonData(), as: UTF8.self))
        } else {
            console.print(merged.summary)
        }
        try MigrateTestCommand.requirePassed(merged)
    }
}
