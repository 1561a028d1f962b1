// Migration guide, step 3: authorization → assets and reservations.
//
//   GuideAuthorizationToAssets before|after <audio-file>
//
// Both halves print their readiness checks, READY, then the transcript.

import Foundation

struct ExampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, ["before", "after"].contains(arguments[0]) else {
    FileHandle.standardError.write(Data("Usage: GuideAuthorizationToAssets before|after <audio-file>\n".utf8))
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
