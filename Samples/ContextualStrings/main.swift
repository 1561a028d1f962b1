// ContextualStrings: bias recognition toward given phrases with either face.
//
//   ContextualStrings legacy|modern <audio-file> <phrase>...
//
// The effect is best-effort on Apple platforms and here alike (API.md §3.5).

import Foundation

struct SampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, ["legacy", "modern"].contains(arguments[0]) else {
    FileHandle.standardError.write(Data("Usage: ContextualStrings legacy|modern <audio-file> <phrase>...\n".utf8))
    exit(64)
}
let url = URL(fileURLWithPath: arguments[1])
let phrases = Array(arguments.dropFirst(2))
do {
    if arguments[0] == "legacy" {
        try await LegacyContextualStrings.run(url, phrases: phrases)
    } else {
        try await ModernContextualStrings.run(url, phrases: phrases)
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
