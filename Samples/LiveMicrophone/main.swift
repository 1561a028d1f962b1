// LiveMicrophone: recognize speech from the microphone with either face.
//
//   LiveMicrophone legacy|modern [seconds]
//
// On Linux the microphone is the ALSA PCM named by SPEECHCOMPAT_ALSA_DEVICE,
// optionally defined in the file named by SPEECHCOMPAT_ALSA_CONFIG (tests use
// an ALSA `file` plugin that plays a recording as the microphone).

import AVFoundation
import Foundation

struct SampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard (1...2).contains(arguments.count), ["legacy", "modern"].contains(arguments[0]),
      let seconds = arguments.count == 2 ? Double(arguments[1]) : 5, seconds > 0 else {
    FileHandle.standardError.write(Data("Usage: LiveMicrophone legacy|modern [seconds]\n".utf8))
    exit(64)
}
guard await AVAudioApplication.requestRecordPermission() else {
    FileHandle.standardError.write(Data("Error: the microphone could not be opened.\n".utf8))
    exit(1)
}
do {
    if arguments[0] == "legacy" {
        try await LegacyLiveMicrophone.run(seconds: seconds)
    } else {
        try await ModernLiveMicrophone.run(seconds: seconds)
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
