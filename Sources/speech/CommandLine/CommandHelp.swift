/// A command's help text, laid out as swift-argument-parser does:
/// OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
struct CommandHelp: Sendable {
    /// The command path after "speech", e.g. "assets install".
    var commandName: String
    /// One or two sentences on what the command does.
    var overview: String
    /// The usage line after "speech", e.g. "transcribe <file>... [options]".
    var usage: String
    /// Positional arguments and their help.
    var arguments: [(name: String, help: String)] = []
    /// The options the command accepts (shared ones are added by ``options``).
    var commandOptions: [OptionSpec] = []
    /// Subcommands and their one-line summaries.
    var subcommands: [(name: String, help: String)] = []
    /// Extra lines printed at the end (examples, notes).
    var discussion: String? = nil

    /// Options every command accepts.
    static let helpOption = OptionSpec.flag("help", short: "h", help: "Show help information.")

    /// The command's options and `-h, --help`.
    var options: [OptionSpec] { commandOptions }

    /// The full usage line: "speech transcribe <file>... [options]".
    var usageLine: String { "speech \(usage)" }

    /// The rendered help text.
    var text: String {
        var lines = ["OVERVIEW: \(overview)", "", "USAGE: \(usageLine)"]
        if !arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            lines += arguments.map { Self.entry($0.name, $0.help) }
        }
        lines += ["", "OPTIONS:"]
        lines += (commandOptions + [Self.helpOption]).map { spec in
            let help = spec.isOnByDefault ? "\(spec.help) (default: on)" : spec.help
            return Self.entry(spec.synopsis, spec.kind == .repeatedValue ? "\(help) (repeatable)" : help)
        }
        if !subcommands.isEmpty {
            lines += ["", "SUBCOMMANDS:"]
            lines += subcommands.map { Self.entry($0.name, $0.help) }
            lines += ["", "  See 'speech help \(commandName.isEmpty ? "" : commandName + " ")<subcommand>' for detailed help."]
        }
        if let discussion {
            lines += ["", discussion]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "  --beam <N>              Beam width …", wrapped under a 26-column name.
    static func entry(_ name: String, _ help: String) -> String {
        let indent = String(repeating: " ", count: 26)
        let lead = "  " + name
        let body = help.split(separator: "\n").map(String.init)
        var first = lead.count < 25 ? lead.padding(toLength: 26, withPad: " ", startingAt: 0) + (body.first ?? "")
            : lead + "\n" + indent + (body.first ?? "")
        for line in body.dropFirst() {
            first += "\n" + indent + line
        }
        return first
    }
}
