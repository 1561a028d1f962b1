import Foundation
import SpeechMigration

/// `speech migrate-test SUITE`: run a migration suite and report, with a
/// non-zero exit status when any check fails.
struct MigrateTestCommand: SpeechCommand {
    static let help = CommandHelp(
        commandName: "migrate-test",
        overview: "Run a migration test suite: legacy and modern paths against references, goldens and each other.",
        usage: "migrate-test <suite> [--junit <out.xml>] [--json <out.json>]",
        arguments: [("<suite>", "A suite folder holding suite.json (see MigrationGuide/05-AdaptersAndSuites.md).")],
        commandOptions: [
            .value("junit", "out.xml", help: "Write JUnit XML for CI."),
            .value("json", "out.json", help: "Write every outcome and check as JSON."),
        ],
        discussion: """
        Prints a summary (PASS/FAIL per case, each failed check with its WER,
        bound and word diff). Exits 0 when every check passes, 1 otherwise.
        Output holds no timestamps: the same input gives the same files.

        EXAMPLES:
          speech migrate-test MigrationGuide/Suite --junit suite.xml
          speech migrate-test MigrationGuide/BrokenSuite
        """)

    var suitePath: String
    var junitPath: String?
    var jsonPath: String?

    init(arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count <= 1 else {
            throw UsageError("Unexpected argument '\(arguments.positionals[1])': give one suite folder.")
        }
        suitePath = arguments.positionals.first ?? ""
        junitPath = arguments.value("junit")
        jsonPath = arguments.value("json")
    }

    func validate() throws(UsageError) {
        guard !suitePath.isEmpty else { throw UsageError("Missing expected argument '<suite>'.") }
    }

    func run(console: Console) async throws {
        let suite = try MigrationSuite(contentsOf: URL(fileURLWithPath: suitePath))
        console.log("Running suite \(suite.name): \(suite.cases.count) cases on "
                    + suite.effectivePaths.map(\.rawValue).joined(separator: ", ") + " …")
        let result = await MigrationSuiteRunner(suite: suite).run()
        console.print(result.summary)
        if let junitPath { try write(Data(JUnitReport.xml(for: result).utf8), to: junitPath) }
        if let jsonPath { try write(try result.jsonData(), to: jsonPath) }
        guard result.passed else {
            throw MigrationError(.recognitionFailed, "Suite \(suite.name) failed: \(result.failureCount) of "
                                 + "\(result.checkCount) checks failed.")
        }
    }

    private func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw MigrationError(.outputFailed, "Cannot write \(path).", underlying: error)
        }
    }
}
