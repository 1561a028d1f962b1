import Foundation
import SpeechEvaluation
import SpeechMigration

/// `speech migrate-test SUITE`: run a migration suite and report, with a
/// non-zero exit status when any check fails.
struct MigrateTestCommand: SpeechCommand {
    static let help = CommandHelp(
        commandName: "migrate-test",
        overview: "Run a migration test suite: legacy and modern paths against references, goldens and each other.",
        usage: "migrate-test <suite> [--junit <out.xml>] [--json <out.json>] [--shard <I/N>] [--allow-outside-suite]",
        arguments: [("<suite>", "A suite folder holding suite.json (see MigrationGuide/05-AdaptersAndSuites.md).")],
        commandOptions: [
            .value("junit", "out.xml", help: "Write JUnit XML for CI."),
            .value("json", "out.json", help: "Write every outcome and check as JSON."),
            ShardOption.option,
            AllowOutsideSuiteOption.option,
        ],
        discussion: """
        Prints a summary (PASS/FAIL per case, each failed check with its WER,
        bound and word diff). Exits 0 when every check passes, 1 otherwise.
        Output holds no timestamps: the same input gives the same files.

        With --shard I/N only the cases of shard I run: case id c goes to shard
        (FNV-1a-64(c) mod N) + 1, the same on every machine. Each shard's --json
        report records the shard; 'speech merge' combines them into the report
        of a whole run (see MigrationGuide/06-ShardingInCI.md).

        Every path the suite names (case ids, audio, goldens) must resolve,
        links and '..' included, inside the suite folder (corpus:PATH inside
        the corpus); --allow-outside-suite lifts that for suites you trust.

        EXAMPLES:
          speech migrate-test MigrationGuide/Suite --junit suite.xml
          speech migrate-test MigrationGuide/Suite --shard 2/4 --json shard-2.json
          speech migrate-test MigrationGuide/BrokenSuite
        """)

    var suitePath: String
    var junitPath: String?
    var jsonPath: String?
    var shard: Shard?
    var allowsOutsideSuite: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count <= 1 else {
            throw UsageError("Unexpected argument '\(arguments.positionals[1])': give one suite folder.")
        }
        suitePath = arguments.positionals.first ?? ""
        junitPath = arguments.value("junit")
        jsonPath = arguments.value("json")
        shard = try ShardOption.shard(from: arguments)
        allowsOutsideSuite = arguments.flag("allow-outside-suite")
    }

    func validate() throws(UsageError) {
        guard !suitePath.isEmpty else { throw UsageError("Missing expected argument '<suite>'.") }
    }

    func run(console: Console) async throws {
        let suite = try MigrationSuite(contentsOf: URL(fileURLWithPath: suitePath),
                                       allowsPathsOutsideSuite: allowsOutsideSuite)
        let part = shard.map { " shard \($0): \($0.select(suite.cases, id: \.id).count) of" } ?? ":"
        console.log("Running suite \(suite.name)\(part) \(suite.cases.count) cases on "
                    + suite.effectivePaths.map(\.rawValue).joined(separator: ", ") + " …")
        let result = await MigrationSuiteRunner(suite: suite).run(shard: shard)
        console.print(result.summary)
        try Self.writeReports(result, junitPath: junitPath, jsonPath: jsonPath)
        try Self.requirePassed(result)
    }

    /// Writes the JUnit and JSON files asked for (migrate-test and merge).
    static func writeReports(_ result: SuiteResult, junitPath: String?, jsonPath: String?) throws {
        if let junitPath { try write(Data(JUnitReport.xml(for: result).utf8), to: junitPath) }
        if let jsonPath { try write(try result.jsonData(), to: jsonPath) }
    }

    /// Throws when any check failed, so the tool exits 1.
    static func requirePassed(_ result: SuiteResult) throws {
        guard result.passed else {
            let part = result.shard.map { " (shard \($0.description))" } ?? ""
            throw MigrationError(.recognitionFailed, "Suite \(result.name)\(part) failed: \(result.failureCount) of "
                                 + "\(result.checkCount) checks failed.")
        }
    }

    private static func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw MigrationError(.outputFailed, "Cannot write \(path).", underlying: error)
        }
    }
}

/// `--allow-outside-suite`, shared by `migrate-test` and `record-golden`.
enum AllowOutsideSuiteOption {
    /// The flag's declaration and help line.
    static let option = OptionSpec.flag("allow-outside-suite", help: "Let case ids, audio and golden paths resolve outside the\nsuite folder (only for suites you trust).")
}
