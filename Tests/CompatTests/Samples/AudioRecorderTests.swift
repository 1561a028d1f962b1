import AVFoundation
import Foundation
import TestSupport
import Testing

/// Runs the AudioRecorder sample as a program, exactly as a user would, with
/// the ALSA `file`-plugin microphone chosen through the environment.
@Suite struct AudioRecorderTests {
    private func run(_ executable: URL, _ arguments: [String], environment: [String: String]) throws
        -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        process.waitUntilExit()
        let text = { (pipe: Pipe) in String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        return (process.terminationStatus, text(output), text(error))
    }

    @Test func recordsTheFileMicrophoneToAWAVFile() throws {
        let microphone = try FileMicrophone(clip: AudioSignals.corpusClip("audio/pocketsphinx/ps_cards_002.wav"))
        defer { microphone.remove() }
        let output = microphone.directory.appendingPathComponent("recording.wav")
        let result = try run(try BuiltProducts.executable("AudioRecorder"), [output.path, "2.5"], environment: [
            "SPEECHCOMPAT_ALSA_DEVICE": microphone.deviceName,
            "SPEECHCOMPAT_ALSA_CONFIG": microphone.configurationURL.path,
        ])
        #expect(result.status == 0, "stderr: \(result.error)")
        let expected = try microphone.samples()
        #expect(result.output.contains("Recorded \(expected.count) frames"))
        let file = try AVAudioFile(forReading: output, commonFormat: .pcmFormatInt16, interleaved: false)
        #expect(file.fileFormat.commonFormat == .pcmFormatInt16 && file.fileFormat.sampleRate == 16_000)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 64_000))
        try file.read(into: buffer)
        let recorded = Array(UnsafeBufferPointer(start: try #require(buffer.int16ChannelData)[0], count: Int(buffer.frameLength)))
        #expect(recorded == expected)
    }

    @Test func reportsAMissingMicrophoneAndBadArguments() throws {
        let executable = try BuiltProducts.executable("AudioRecorder")
        let directory = try AudioSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try run(executable, [directory.appendingPathComponent("x.wav").path, "0.2"],
                              environment: ["SPEECHCOMPAT_ALSA_DEVICE": "speechcompat_no_such_device"])
        #expect(missing.status == 1 && missing.error.contains("Error: microphone access was denied"))
        let usage = try run(executable, [], environment: [:])
        #expect(usage.status == 64 && usage.error.contains("Usage: AudioRecorder"))
    }
}
