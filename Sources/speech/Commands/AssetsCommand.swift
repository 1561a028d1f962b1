import Foundation
import SpeechEngine

/// `speech assets list|install|remove`: manage the Whisper models in the
/// asset store (an XDG data folder; `SPEECHCOMPAT_MODELS` or
/// `XDG_DATA_HOME` move it).
enum AssetsCommand {
    /// Help for `speech assets` itself.
    static let group = CommandHelp(
        commandName: "assets",
        overview: "List, install and remove the Whisper models recognition runs on.",
        usage: "assets <subcommand>",
        subcommands: [
            ("list", AssetsListCommand.help.overview),
            ("install", AssetsInstallCommand.help.overview),
            ("remove", AssetsRemoveCommand.help.overview),
        ])

    /// The `--format` option of the assets commands.
    static let formatOption = OptionSpec.value("format", "format", help: "Output: text or json (default: text).")

    /// Model names from positional arguments.
    /// - Throws: ``UsageError`` naming an unknown model and the known ones.
    static func modelNames(_ names: [String]) throws(UsageError) -> [ModelName] {
        var models: [ModelName] = []
        for name in names {
            guard let model = ModelName(rawValue: name) else {
                throw UsageError("Unknown model '\(name)'; known models: \(ModelName.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            if !models.contains(model) { models.append(model) }
        }
        return models
    }
}

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

/// `speech assets remove NAME`: delete an installed model.
struct AssetsRemoveCommand: SpeechCommand {
    static let help = CommandHelp(
        commandName: "assets remove",
        overview: "Remove an installed model.",
        usage: "assets remove <name>... [--format text|json]",
        arguments: [("<name>", "The model to remove: \(ModelName.allCases.map(\.rawValue).joined(separator: ", ")).")],
        commandOptions: [AssetsCommand.formatOption])

    var models: [ModelName]
    var json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        models = try AssetsCommand.modelNames(arguments.positionals)
        json = try arguments.choice("format", from: ["text", "json"]) == "json"
    }

    func validate() throws(UsageError) {
        if models.isEmpty { throw UsageError("Missing expected argument '<name>'.") }
    }

    func run(console: Console) async throws {
        let store = AssetStore.default
        for model in models {
            try store.remove(model)
            if !json { console.print("Removed \(model.rawValue) from \(store.directory(for: model).path).") }
        }
        if json { console.writeOutput(try JSONOutput.encode(["removed": models.map(\.rawValue)])) }
    }
}
