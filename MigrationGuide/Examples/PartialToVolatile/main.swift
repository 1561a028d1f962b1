// Migration guide, step 2: partial results → volatile results, isFinal →
// finalized ranges, buffer requests → analyzer input sequences.
//
//   GuidePartialToVolatile before|after <audio-file>
//
// The file is cut into 0.1 s buffers, as a microphone tap delivers them.

import AVFoundation
import Foundation

struct ExampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func buffers(of url: URL) throws -> [AVAudioPCMBuffer] {
    let file = try AVAudioFile(forReading: url)
    let frames = AVAudioFrameCount(file.processingFormat.sampleRate / 10)
    var buffers: [AVAudioPCMBuffer] = []
    while file.framePosition < file.length {
        guard let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: frames) else { break }
        try file.read(into: buffer)
        if buffer.frameLength == 0 { break }
        buffers.append(buffer)
    }
    return buffers
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, ["before", "after"].contains(arguments[0]) else {
    FileHandle.standardError.write(Data("Usage: GuidePartialToVolatile before|after <audio-file>\n".utf8))
    exit(64)
}
do {
    let audio = try buffers(of: URL(fileURLWithPath: arguments[1]))
    if arguments[0] == "before" {
        try await Before.transcribe(audio)
    } else {
        try await After.transcribe(audio)
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
