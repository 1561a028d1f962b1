import Foundation

// The `speech` command-line tool. See `speech --help`.
let status = await SpeechTool.main(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
