/// One command of the `speech` tool.
///
/// The tool parses the command line against ``help``'s options into a
/// ``ParsedArguments``, builds the command with ``init(arguments:)``, calls
/// ``validate()``, then ``run(console:)``. Usage mistakes throw
/// ``UsageError`` (exit 64); anything else thrown is a runtime failure
/// (exit 1).
protocol SpeechCommand: Sendable {
    /// The command's help text and option declarations.
    static var help: CommandHelp { get }

    /// Reads the command's options from parsed arguments.
    init(arguments: ParsedArguments) throws(UsageError)

    /// Checks the options together before anything runs.
    func validate() throws(UsageError)

    /// Does the work; results go to standard output.
    func run(console: Console) async throws
}

extension SpeechCommand {
    func validate() throws(UsageError) {}
}
