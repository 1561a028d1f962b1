// The AudioRecorder sample's entry point: ask for the microphone, record for
// a few seconds, report what was written.
//
//   AudioRecorder <output.wav> [seconds]
//
// On Linux the microphone is the ALSA PCM named by SPEECHCOMPAT_ALSA_DEVICE
// (default "default"), optionally defined in the file named by
// SPEECHCOMPAT_ALSA_CONFIG.

import AVFoundation

@main
struct AudioRecorderApp {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let path = arguments.first, arguments.count <= 2,
              let seconds = arguments.count == 2 ? Double(arguments[1]) : 3, seconds > 0 else {
            printError("Error: expected an output file and an optional positive duration in seconds.\n"
                       + "Usage: AudioRecorder <output.wav> [seconds]")
            exit(64)
        }
        guard await AVAudioApplication.requestRecordPermission() else {
            printError("Error: microphone access was denied: the capture device could not be opened.")
            exit(1)
        }
        let recorder = AudioRecorder()
        let url = URL(fileURLWithPath: path)
        do {
            try recorder.startRecording(to: url)
        } catch {
            printError("Error: \(error.localizedDescription)")
            exit(1)
        }
        try? await Task.sleep(for: .seconds(seconds))
        recorder.stopRecording()
        if let error = recorder.writeError {
            printError("Error: writing \(path) failed: \(error.localizedDescription)")
            exit(1)
        }
        print("Recorded \(recorder.framesWritten) frames to \(path)")
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
