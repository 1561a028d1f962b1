import Foundation

import SpeechService

// The `speech` command-line tool. See `speech --help`.
// One glibc arena: a 2-minute file peaks 5 MB lower; `serve` applies its own settings (AllocatorTuning).
AllocatorTuning.apply(for: .oneAtATime)
let status = await SpeechTool.main(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
