// AlternativesAndConfidence: show the alternative transcriptions and the
// confidence of every word, and flag the words worth a second look.
//
//   AlternativesAndConfidence legacy|modern <audio-file>

import Foundation

struct SampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, ["legacy", "modern"].contains(arguments[0]) else {
    FileHandle.standardError.write(Data("Usage: AlternativesAndConfidence legacy|modern <audio-file>\n".utf8))
    exit(64)
}
let url = URL(fileURLWithPath: arguments[1])
do {
    if arguments[0] == "legacy" {
        try await LegacyAlternatives.run(url)
    } else {
        try await ModernAlternatives.run(url)
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
