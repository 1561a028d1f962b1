// The legacy face, stopped the way dictation apps stop it.

import AVFoundation
import Foundation
import Speech

/// A menu-bar dictation controller, as such apps write it: a buffer request
/// fed from the audio source in real time, and a `stop()` that ends audio,
/// cancels a little later and quits.
final class DictationController: @unchecked Sendable {
    let recognizer: SFSpeechRecognizer
    var request: SFSpeechAudioBufferRecognitionRequest?
    var task: SFSpeechRecognitionTask?
    var onResult: ((SFSpeechRecognitionResult) -> Void)?

    init() throws {
        guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")), recognizer.isAvailable else {
            throw SampleError("speech recognition for en-US is not available (speech assets install whisper-base)")
        }
        recognizer.queue = OperationQueue()
        self.recognizer = recognizer
    }

    func start() {
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.shouldReportPartialResults = true
        request.requiresOnDeviceRecognition = true
        self.request = request
        task = recognizer.recognitionTask(with: request) { [weak self] result, error in
            if let result { self?.onResult?(result) }
            if error != nil || result?.isFinal == true { self?.task = nil }
        }
    }

    func stop() {
        request?.endAudio()
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.9) { [self] in
            task?.cancel()
            exit(0)
        }
    }
}

/// Feeds `seconds` of a file to `append` in 100 ms buffers at real-time pace.
func feedInRealTime(_ url: URL, seconds: Double, _ append: (AVAudioPCMBuffer) -> Void) async throws {
    let file = try AVAudioFile(forReading: url)
    let chunk = AVAudioFrameCount(file.processingFormat.sampleRate / 10)
    var fed = 0.0
    while fed < seconds, file.framePosition < file.length {
        guard let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: chunk) else { return }
        try file.read(into: buffer)
        append(buffer)
        fed += 0.1
        try await Task.sleep(nanoseconds: 100_000_000)
    }
}

enum LegacyStopPatterns {
    /// Real-time feed, `endAudio()`, `cancel()` 0.9 s later, `exit(0)`.
    static func stopThenExit(_ url: URL) async throws {
        let controller = try DictationController()
        controller.start()
        try await feedInRealTime(url, seconds: 6) { controller.request?.append($0) }
        controller.stop()
        try await Task.sleep(nanoseconds: 10_000_000_000)
        throw SampleError("stop() did not exit")
    }

    /// `exit(0)` from the result handler at the first partial, while the
    /// engine goes on decoding.
    static func exitInHandler(_ url: URL) async throws {
        let controller = try DictationController()
        controller.onResult = { _ in exit(0) }
        controller.start()
        try await feedInRealTime(url, seconds: 20) { controller.request?.append($0) }
        controller.request?.endAudio()
        // However slow the machine (a sanitizer build runs ten times slower and
        // skips partials when behind), the final result comes before the task
        // completes: wait for that, not a fixed time. The handler's exit runs on
        // the recognizer's queue, so give it a moment after completion.
        let task = controller.task
        while task?.state != .completed { try await Task.sleep(nanoseconds: 100_000_000) }
        try await Task.sleep(nanoseconds: 2_000_000_000)
        throw SampleError("the task completed without a result")
    }

    /// Every reference dropped mid-decode; the process then goes on and ends normally.
    static func releaseAll(_ url: URL) async throws {
        var controller: DictationController? = try DictationController()
        controller?.start()
        try await feedInRealTime(url, seconds: 3) { controller?.request?.append($0) }
        controller?.request?.endAudio()
        controller = nil
        try await Task.sleep(nanoseconds: 1_500_000_000)
        print("RELEASED")
    }

    /// A second task started on the same recognizer while the first decodes;
    /// the first is cancelled, the second's final result arrives, then exit.
    static func secondTask(_ url: URL) async throws {
        let first = try DictationController()
        first.start()
        try await feedInRealTime(url, seconds: 2) { first.request?.append($0) }
        first.request?.endAudio()
        let request = SFSpeechURLRecognitionRequest(url: url)
        request.requiresOnDeviceRecognition = true
        let text: String = try await withCheckedThrowingContinuation { continuation in
            first.recognizer.recognitionTask(with: request) { result, error in
                if let error { continuation.resume(throwing: error) }
                if let result, result.isFinal { continuation.resume(returning: result.bestTranscription.formattedString) }
            }
            first.task?.cancel()
        }
        print("SECOND: \(text)")
    }
}
