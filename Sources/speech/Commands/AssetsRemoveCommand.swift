import Foundation
import SpeechEngine

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
