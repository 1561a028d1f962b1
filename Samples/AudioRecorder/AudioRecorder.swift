// Records the microphone to a file the way an iOS app does: configure the
// shared AVAudioSession, tap AVAudioEngine's input node, write each buffer
// with AVAudioFile. Nothing here is Linux-specific.

import AVFoundation

/// Captures microphone audio into a 16-bit WAV file.
final class AudioRecorder {
    private let audioEngine = AVAudioEngine()
    private var audioFile: AVAudioFile?
    private let writeErrors = WriteErrorLog()

    /// Frames written so far.
    var framesWritten: AVAudioFramePosition { audioFile?.length ?? 0 }

    /// Any error the tap hit while writing.
    var writeError: Error? { writeErrors.first }

    /// Sets up the session and starts recording into `url`.
    func startRecording(to url: URL) throws {
        let audioSession = AVAudioSession.sharedInstance()
        try audioSession.setCategory(.record, mode: .measurement, options: .duckOthers)
        try audioSession.setActive(true, options: .notifyOthersOnDeactivation)

        let inputNode = audioEngine.inputNode
        let recordingFormat = inputNode.outputFormat(forBus: 0)
        let settings: [String: Any] = [
            AVFormatIDKey: kAudioFormatLinearPCM,
            AVSampleRateKey: recordingFormat.sampleRate,
            AVNumberOfChannelsKey: recordingFormat.channelCount,
            AVLinearPCMBitDepthKey: 16,
            AVLinearPCMIsFloatKey: false,
        ]
        let file = try AVAudioFile(forWriting: url, settings: settings)
        audioFile = file

        let errors = writeErrors
        inputNode.installTap(onBus: 0, bufferSize: 1024, format: recordingFormat) { buffer, _ in
            do {
                try file.write(from: buffer)
            } catch {
                errors.record(error)
            }
        }

        audioEngine.prepare()
        try audioEngine.start()
    }

    /// Stops recording and closes the file.
    func stopRecording() {
        audioEngine.stop()
        audioEngine.inputNode.removeTap(onBus: 0)
        audioFile?.close()
        try? AVAudioSession.sharedInstance().setActive(false, options: .notifyOthersOnDeactivation)
    }
}

/// Errors raised inside the tap, which runs on a background thread.
private final class WriteErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [Error] = []

    func record(_ error: Error) {
        lock.lock()
        errors.append(error)
        lock.unlock()
    }

    var first: Error? {
        lock.lock()
        defer { lock.unlock() }
        return errors.first
    }
}
