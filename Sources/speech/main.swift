import Foundation

import SpeechService

// The `speech` command-line tool. See `speech --help`.
// Large buffers mmapped and few arenas: a 2-minute file peaks 7 MB lower (AllocatorTuning).
AllocatorTuning.apply()
let status = await SpeechTool.main(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
