// Migration guide, step 1: recognizer and task → analyzer and modules.
//
//   GuideRecognizerToAnalyzer before|after <audio-file>
//
// Both halves print the transcript and one WORD line per word
// (start, duration, confidence, text); the guide's test runs both on the
// same clip and checks that they agree.

import Foundation

struct ExampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, ["before", "after"].contains(arguments[0]) else {
    FileHandle.standardError.write(Data("Usage: GuideRecognizerToAnalyzer before|after <audio-file>\n".utf8))
    exit(64)
}
let url = URL(fileURLWithPath: arguments[1])
do {
    if arguments[0] == "before" {
        try await Before.transcribe(url)
    } else {
        try await After.transcribe(url)
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
