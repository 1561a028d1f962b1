// Before: live audio with the legacy face — buffers are appended to an
// SFSpeechAudioBufferRecognitionRequest; partial results are cumulative
// (each carries the whole text so far) and isFinal arrives only after endAudio().

import AVFoundation
import Foundation
import Speech

enum Before {
    static func transcribe(_ buffers: [AVAudioPCMBuffer]) async throws {
        guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")) else {
            throw ExampleError("en-US is not supported")
        }
        recognizer.queue = OperationQueue()
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.shouldReportPartialResults = true
        request.requiresOnDeviceRecognition = true
        request.addsPunctuation = true

        let final: SFSpeechRecognitionResult = try await withCheckedThrowingContinuation { continuation in
            recognizer.recognitionTask(with: request) { result, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let result {
                    if result.isFinal {
                        continuation.resume(returning: result)
                    } else {
                        // Cumulative: replace what is on screen, don't append.
                        print("PARTIAL: \(result.bestTranscription.formattedString)")
                    }
                }
            }
            // As an AVAudioEngine input tap would, append buffers as they come …
            for buffer in buffers { request.append(buffer) }
            // … and end the audio: the final result follows.
            request.endAudio()
        }
        print("TRANSCRIPT: \(final.bestTranscription.formattedString)")
    }
}
