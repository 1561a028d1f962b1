// FileTranscription: transcribe an audio file with either face.
//
//   FileTranscription legacy|modern <audio-file>

import Foundation

struct SampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, ["legacy", "modern"].contains(arguments[0]) else {
    FileHandle.standardError.write(Data("Usage: FileTranscription legacy|modern <audio-file>\n".utf8))
    exit(64)
}
let url = URL(fileURLWithPath: arguments[1])
do {
    if arguments[0] == "legacy" {
        try await LegacyFileTranscription.run(url)
    } else {
        try await ModernFileTranscription.run(url)
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
