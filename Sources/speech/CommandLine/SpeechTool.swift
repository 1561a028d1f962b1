import Foundation
import SpeechEngine
import SpeechEvaluation

/// The `speech` tool: finds the command named on the command line, handles
/// `help`, `-h/--help` and `--version`, runs the command, and turns errors
/// into messages on standard error and an exit status.
enum SpeechTool {
    /// The version `--version` prints.
    static let version = "0.1.0"

    /// The commands, as help lists them.
    static let tree = CommandTree.group(
        CommandHelp(commandName: "", overview: "Speech recognition on Linux: transcribe, evaluate and benchmark with the SpeechCompat Whisper engine.",
                    usage: "<subcommand> [options]",
                    commandOptions: [.flag("version", help: "Show the version.")],
                    subcommands: [
                        ("transcribe", TranscribeCommand.help.overview),
                        ("eval", EvalCommand.help.overview),
                        ("bench", BenchCommand.help.overview),
                        ("assets", AssetsCommand.group.overview),
                        ("compare", CompareCommand.help.overview),
                        ("migrate-test", MigrateTestCommand.help.overview),
                        ("record-golden", RecordGoldenCommand.help.overview),
                        ("merge", MergeCommand.help.overview),
                        ("serve", ServeCommand.help.overview),
                        ("help", "Show help for a subcommand."),
                    ]),
        [
            ("transcribe", .command(TranscribeCommand.self)),
            ("eval", .command(EvalCommand.self)),
            ("bench", .command(BenchCommand.self)),
            ("compare", .command(CompareCommand.self)),
            ("migrate-test", .command(MigrateTestCommand.self)),
            ("record-golden", .command(RecordGoldenCommand.self)),
            ("merge", .command(MergeCommand.self)),
            ("serve", .command(ServeCommand.self)),
            ("assets", .group(AssetsCommand.group, [
                ("list", .command(AssetsListCommand.self)),
                ("install", .command(AssetsInstallCommand.self)),
                ("remove", .command(AssetsRemoveCommand.self)),
            ])),
        ])

    /// Runs the tool on `arguments` (without the program name) and returns
    /// the exit status.
    static func main(_ arguments: [String], console: Console = .process) async -> ExitStatus {
        var node = tree
        var remaining = arguments[...]
        var path: [String] = []
        while let first = remaining.first, let child = node.child(first) {
            node = child
            path.append(first)
            remaining.removeFirst()
        }
        switch node {
        case .group(let help, _):
            return runGroup(help, path: path, arguments: Array(remaining), console: console)
        case .command(let type):
            return await runCommand(type, arguments: Array(remaining), console: console)
        }
    }

    /// A group was named without a runnable subcommand: help, version, or a
    /// usage error for an unknown subcommand.
    private static func runGroup(_ help: CommandHelp, path: [String], arguments: [String],
                                 console: Console) -> ExitStatus {
        guard let first = arguments.first else {
            console.print(help.text)
            return .success
        }
        if first == "-h" || first == "--help" {
            console.print(help.text)
            return .success
        }
        if path.isEmpty, first == "--version" {
            console.print("speech \(version) (SpeechCompat)")
            return .success
        }
        if path.isEmpty, first == "help" {
            return showHelp(for: Array(arguments.dropFirst()), console: console)
        }
        let what = first.hasPrefix("-") ? "option" : "subcommand"
        return reportUsage(UsageError("Unknown \(what) '\(first)'."), help: help, console: console)
    }

    /// `speech help [<subcommand>...]`.
    private static func showHelp(for names: [String], console: Console) -> ExitStatus {
        var node = tree
        for name in names {
            guard let child = node.child(name) else {
                return reportUsage(UsageError("Unknown subcommand '\(names.joined(separator: " "))'."),
                                   help: node.help, console: console)
            }
            node = child
        }
        console.print(node.help.text)
        return .success
    }

    private static func runCommand(_ type: any SpeechCommand.Type, arguments: [String],
                                   console: Console) async -> ExitStatus {
        let command: any SpeechCommand
        do throws(UsageError) {
            let parsed = try ParsedArguments(arguments, specs: type.help.options)
            if parsed.helpRequested {
                console.print(type.help.text)
                return .success
            }
            command = try type.init(arguments: parsed)
            try command.validate()
        } catch {
            return reportUsage(error, help: type.help, console: console)
        }
        do {
            try await command.run(console: console)
            return .success
        } catch let error as UsageError {
            return reportUsage(error, help: type.help, console: console)
        } catch {
            console.log("Error: \(describe(error))")
            return .failure
        }
    }

    /// Prints `Error: …`, `Usage: …` and where to read more, on stderr.
    static func reportUsage(_ error: UsageError, help: CommandHelp, console: Console) -> ExitStatus {
        let command = help.commandName.isEmpty ? "speech" : "speech \(help.commandName)"
        console.log("Error: \(error.message)")
        console.log("Usage: \(help.usageLine)")
        console.log("See '\(command) --help' for more information.")
        return .usage
    }

    /// A runtime error as one readable line.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as EngineError: return error.message
        case let error as ManifestError: return error.description
        case let error as CustomStringConvertible: return error.description
        default: return "\(error)"
        }
    }
}
