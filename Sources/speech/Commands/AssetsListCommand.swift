import Foundation
import SpeechEngine

/// `speech assets list`: every known model, whether it is installed, where.
struct AssetsListCommand: SpeechCommand {
    static let help = CommandHelp(
        commandName: "assets list",
        overview: "Show the known models and which are installed.",
        usage: "assets list [--verify] [--format text|json]",
        commandOptions: [
            .flag("verify", help: "Check every installed file's SHA-256 (slower)."),
            AssetsCommand.formatOption,
        ])

    var verify: Bool
    var json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        if let extra = arguments.positionals.first { throw UsageError("Unexpected argument '\(extra)'.") }
        verify = arguments.flag("verify")
        json = try arguments.choice("format", from: ["text", "json"]) == "json"
    }

    /// One model's row.
    struct Row: Encodable, Sendable {
        var name: String
        var installed: Bool
        var multilingual: Bool
        var path: String
        /// With `--verify`: nil if the files check out, else what is wrong.
        var problem: String?
    }

    func run(console: Console) async throws {
        let store = AssetStore.default
        let rows = ModelName.allCases.map { model in
            var problem: String?
            let installed = store.isInstalled(model)
            if verify, installed {
                do { try store.verify(model) } catch { problem = SpeechTool.describe(error) }
            }
            return Row(name: model.rawValue, installed: installed, multilingual: model.isMultilingual,
                       path: store.directory(for: model).path, problem: problem)
        }
        if json {
            console.writeOutput(try JSONOutput.encode(rows))
            return
        }
        for row in rows {
            let state = row.problem != nil ? "damaged" : (row.installed ? "installed" : "not installed")
            let languages = row.multilingual ? "99 languages" : "English only"
            console.print("\(row.name.padding(toLength: 18, withPad: " ", startingAt: 0))"
                          + "\(state.padding(toLength: 15, withPad: " ", startingAt: 0))"
                          + "\(languages.padding(toLength: 14, withPad: " ", startingAt: 0))\(row.path)")
            if let problem = row.problem { console.print("  \(problem)") }
        }
        if rows.contains(where: { $0.problem != nil }) {
            throw EngineError(.invalidModelFile, "Some models failed verification; reinstall them with `speech assets install <name>`.")
        }
    }
}
