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
