// SpeechDetection: tell whether (and where) a recording holds speech.
//
//   SpeechDetection legacy|modern <audio-file>
//
// Prints SPEECH: yes or SPEECH: no (legacy: after error 1110).

import Foundation

struct SampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, ["legacy", "modern"].contains(arguments[0]) else {
    FileHandle.standardError.write(Data("Usage: SpeechDetection legacy|modern <audio-file>\n".utf8))
    exit(64)
}
let url = URL(fileURLWithPath: arguments[1])
do {
    if arguments[0] == "legacy" {
        try await LegacySpeechDetection.run(url)
    } else {
        try await ModernSpeechDetection.run(url)
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
