import Foundation
import SpeechMigration

/// `speech record-golden SUITE`: record the golden outcome of every
/// `golden: true` case of a suite on every path.
struct RecordGoldenCommand: SpeechCommand {
    static let help = CommandHelp(
        commandName: "record-golden",
        overview: "Record golden outcomes (transcript, timed words, event order) for a migration suite.",
        usage: "record-golden <suite> [--allow-outside-suite]",
        arguments: [("<suite>", "A suite folder holding suite.json; goldens go to <suite>/goldens/.")],
        commandOptions: [AllowOutsideSuiteOption.option],
        discussion: """
        Writes goldens/<case>.<path>.json for each case marked "golden": true,
        replacing earlier ones. Review the diff before committing them:
        `speech migrate-test` then checks every later run against them.

        Goldens are written only inside <suite>/goldens/, and audio is read
        only inside the suite (or the corpus, for corpus:PATH): a case id or
        path that resolves elsewhere (through '..' or a symbolic link) stops
        the run before anything is written, unless --allow-outside-suite.

        EXAMPLES:
          speech record-golden MigrationGuide/Suite
        """)

    var suitePath: String
    var allowsOutsideSuite: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count <= 1 else {
            throw UsageError("Unexpected argument '\(arguments.positionals[1])': give one suite folder.")
        }
        suitePath = arguments.positionals.first ?? ""
        allowsOutsideSuite = arguments.flag("allow-outside-suite")
    }

    func validate() throws(UsageError) {
        guard !suitePath.isEmpty else { throw UsageError("Missing expected argument '<suite>'.") }
    }

    func run(console: Console) async throws {
        let suite = try MigrationSuite(contentsOf: URL(fileURLWithPath: suitePath),
                                       allowsPathsOutsideSuite: allowsOutsideSuite)
        guard suite.cases.contains(where: { $0.golden == true }) else {
            throw MigrationError(.invalidSuite, "No case of \(suite.name) is marked \"golden\": true.")
        }
        let written = try await MigrationSuiteRunner(suite: suite).recordGoldens()
        for url in written { console.print("Recorded \(url.path)") }
    }
}
