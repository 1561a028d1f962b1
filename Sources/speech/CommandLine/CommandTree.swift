/// The tree of `speech` commands: groups (the tool itself, `assets`) hold
/// named children; leaves are ``SpeechCommand`` types.
indirect enum CommandTree: Sendable {
    /// A runnable command.
    case command(any SpeechCommand.Type)
    /// A command with subcommands, in help order.
    case group(CommandHelp, [(name: String, node: CommandTree)])

    /// The node's help.
    var help: CommandHelp {
        switch self {
        case .command(let type): return type.help
        case .group(let help, _): return help
        }
    }

    /// The child called `name`, if this is a group that has one.
    func child(_ name: String) -> CommandTree? {
        guard case .group(_, let children) = self else { return nil }
        return children.first { $0.name == name }?.node
    }
}
