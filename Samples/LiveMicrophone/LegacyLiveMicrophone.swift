// The legacy face on the microphone: an AVAudioEngine input tap appends
// buffers to an SFSpeechAudioBufferRecognitionRequest; partial results show
// the text as it is spoken; endAudio() brings the final result.

import AVFoundation
import Foundation
import Speech

enum LegacyLiveMicrophone {
    static func run(seconds: Double) async throws {
        guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")), recognizer.isAvailable else {
            throw SampleError("speech recognition for en-US is not available")
        }
        recognizer.queue = OperationQueue()
        let audioEngine = AVAudioEngine()
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.shouldReportPartialResults = true
        request.requiresOnDeviceRecognition = true

        let inputNode = audioEngine.inputNode
        let format = inputNode.outputFormat(forBus: 0)
        inputNode.installTap(onBus: 0, bufferSize: 1024, format: format) { buffer, _ in
            request.append(buffer)
        }
        audioEngine.prepare()
        try audioEngine.start()
        print("LISTENING for \(seconds) s")

        let final: SFSpeechRecognitionResult = try await withCheckedThrowingContinuation { continuation in
            recognizer.recognitionTask(with: request) { result, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let result {
                    if result.isFinal {
                        continuation.resume(returning: result)
                    } else {
                        print("PARTIAL: \(result.bestTranscription.formattedString)")
                    }
                }
            }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                audioEngine.stop()
                inputNode.removeTap(onBus: 0)
                request.endAudio()
            }
        }
        print("TRANSCRIPT: \(final.bestTranscription.formattedString)")
    }
}
