// StopPatterns: the ways real apps stop recognition, each ending the process
// while the engine may still be decoding. Tests run every pattern many times
// and expect a clean exit (status 0, no signal, no hang).
//
//   StopPatterns <pattern> <audio-file>
//
// Patterns: stop-then-exit, exit-in-handler, release-all, second-task,
//           modern-cancel-exit, modern-exit-in-results

import Foundation

let patterns: [String: (URL) async throws -> Void] = [
    "stop-then-exit": LegacyStopPatterns.stopThenExit,
    "exit-in-handler": LegacyStopPatterns.exitInHandler,
    "release-all": LegacyStopPatterns.releaseAll,
    "second-task": LegacyStopPatterns.secondTask,
    "modern-cancel-exit": ModernStopPatterns.cancelThenExit,
    "modern-exit-in-results": ModernStopPatterns.exitInResults,
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, let pattern = patterns[arguments[0]] else {
    let names = patterns.keys.sorted().joined(separator: "|")
    FileHandle.standardError.write(Data("Usage: StopPatterns \(names) <audio-file>\n".utf8))
    exit(64)
}
do {
    try await pattern(URL(fileURLWithPath: arguments[1]))
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
