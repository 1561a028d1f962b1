// SendableAudioFile: Swift 6 code that sends an AVAudioFile into tasks, as
// the 26 SDK allows (AVAudioFile is Sendable).
//
//   SendableAudioFile legacy|modern <audio-file>
//
// Both halves first share one open file between two child tasks that read it
// in turns (every frame is read exactly once), then hand a second file to a
// task that feeds recognition.

import AVFoundation
import Foundation

struct SampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Two tasks drain one file concurrently; their frame counts add up to its length.
func readConcurrently(_ url: URL) async throws {
    let file = try AVAudioFile(forReading: url)
    let frameCounts = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<2 {
            group.addTask {
                guard let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 1_600) else { return 0 }
                var frames = 0
                while true {
                    try file.read(into: buffer)
                    if buffer.frameLength == 0 { return frames }
                    frames += Int(buffer.frameLength)
                }
            }
        }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
    }
    print("SHARED: \(frameCounts.reduce(0, +)) of \(file.length) frames by \(frameCounts.count) tasks")
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, ["legacy", "modern"].contains(arguments[0]) else {
    FileHandle.standardError.write(Data("Usage: SendableAudioFile legacy|modern <audio-file>\n".utf8))
    exit(64)
}
let url = URL(fileURLWithPath: arguments[1])
do {
    try await readConcurrently(url)
    if arguments[0] == "legacy" {
        try await LegacySendableAudioFile.run(url)
    } else {
        try await ModernSendableAudioFile.run(url)
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
