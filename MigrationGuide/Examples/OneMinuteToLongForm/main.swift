// Migration guide, step 4: the one-minute limit → long-form analysis.
//
//   GuideOneMinuteToLongForm before|after <audio-file> [limit-seconds]
//
// limit-seconds (default 60) shortens the legacy limit (a Linux extension)
// so that the step can be shown on short audio.

import AVFoundation
import Foundation

struct ExampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func buffers(of url: URL) throws -> [AVAudioPCMBuffer] {
    let file = try AVAudioFile(forReading: url)
    var buffers: [AVAudioPCMBuffer] = []
    while file.framePosition < file.length {
        guard let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 4_096) else { break }
        try file.read(into: buffer)
        if buffer.frameLength == 0 { break }
        buffers.append(buffer)
    }
    return buffers
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard (2...3).contains(arguments.count), ["before", "after"].contains(arguments[0]),
      let limit = arguments.count == 3 ? Double(arguments[2]) : 60, limit >= 4 else {
    FileHandle.standardError.write(Data("Usage: GuideOneMinuteToLongForm before|after <audio-file> [limit-seconds ≥ 4]\n".utf8))
    exit(64)
}
let url = URL(fileURLWithPath: arguments[1])
do {
    if arguments[0] == "before" {
        try await Before.transcribe(try buffers(of: url), limitSeconds: limit)
    } else {
        try await After.transcribe(url)
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
