import TestSupport
import Foundation
import Speech
import Testing

/// Apple's live-capture pattern — AVAudioEngine input tap → `append(_:)`,
/// partial results printed, stop → `endAudio()`, `isFinal` → done — written
/// as an iOS app writes it, against the ALSA file-plugin microphone.
@Suite(.enabled(if: Models.testsEnabled, Models.disabledReason), .serialized)
struct SFSpeechAudioBufferRecognitionRequestLiveModelTests {
    /// The state an app's view controller keeps.
    final class LiveTranscription: @unchecked Sendable {
        let audioEngine = AVAudioEngine()
        let speechRecognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US"))!
        var recognitionRequest: SFSpeechAudioBufferRecognitionRequest?
        var recognitionTask: SFSpeechRecognitionTask?
        private let lock = NSLock()
        private var partialTexts: [String] = []
        private var finalText: String?
        private var failure: (any Error)?
        private var capturedFrames = 0

        var partials: [String] { lock.withLock { partialTexts } }
        var transcript: String? { lock.withLock { finalText } }
        var error: (any Error)? { lock.withLock { failure } }
        var frames: Int { lock.withLock { capturedFrames } }

        func startRecording() throws {
            speechRecognizer.queue = OperationQueue()  // no main run loop in a test process
            let request = SFSpeechAudioBufferRecognitionRequest()
            request.shouldReportPartialResults = true
            recognitionRequest = request
            let inputNode = audioEngine.inputNode
            recognitionTask = speechRecognizer.recognitionTask(with: request) { result, error in
                var isFinal = false
                if let result {
                    isFinal = result.isFinal
                    self.lock.withLock {
                        if isFinal { self.finalText = result.bestTranscription.formattedString }
                        else { self.partialTexts.append(result.bestTranscription.formattedString) }
                    }
                }
                if error != nil || isFinal {
                    self.audioEngine.stop()
                    inputNode.removeTap(onBus: 0)
                    self.recognitionRequest = nil
                    self.recognitionTask = nil
                    if let error { self.lock.withLock { self.failure = error } }
                }
            }
            let recordingFormat = inputNode.outputFormat(forBus: 0)
            inputNode.installTap(onBus: 0, bufferSize: 1024, format: recordingFormat) { buffer, _ in
                self.lock.withLock { self.capturedFrames += Int(buffer.frameLength) }
                self.recognitionRequest?.append(buffer)
            }
            audioEngine.prepare()
            try audioEngine.start()
        }

        /// The user taps "Stop".
        func stopRecording() {
            audioEngine.stop()
            recognitionRequest?.endAudio()
        }
    }

    @Test func livePatternTranscribesTheMicrophone() async throws {
        let clip = try ModelTestSupport.clip("2412-153948-0001")
        let folder = try ModelTestSupport.installFileMicrophone(playing: clip.url)
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = LiveTranscription()
        try app.startRecording()
        let clipFrames = Int(clip.durationSeconds * 16_000)
        let started = Date()
        while app.frames < clipFrames - 1_024, Date().timeIntervalSince(started) < clip.durationSeconds + 20 {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        app.stopRecording()
        while app.transcript == nil, app.error == nil, Date().timeIntervalSince(started) < 180 {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        #expect(app.error == nil)
        let transcript = try #require(app.transcript)
        #expect(!app.partials.isEmpty)
        #expect(ModelTestSupport.wordErrorRate(transcript, reference: clip.reference) < 0.2, "\(transcript)")
    }
}
