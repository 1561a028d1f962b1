// The legacy face: transcribe a recorded file with SFSpeechRecognizer and an
// SFSpeechURLRecognitionRequest, printing partial results as they arrive.

import Foundation
import Speech

enum LegacyFileTranscription {
    static func run(_ url: URL) async throws {
        guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")), recognizer.isAvailable else {
            throw SampleError("speech recognition for en-US is not available (speech assets install whisper-base)")
        }
        recognizer.queue = OperationQueue()
        let request = SFSpeechURLRecognitionRequest(url: url)
        request.addsPunctuation = true
        request.requiresOnDeviceRecognition = true

        let result: SFSpeechRecognitionResult = try await withCheckedThrowingContinuation { continuation in
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
        }
        print("TRANSCRIPT: \(result.bestTranscription.formattedString)")
        for segment in result.bestTranscription.segments {
            print(String(format: "WORD %.3f %.3f %.3f %@", segment.timestamp, segment.duration, segment.confidence,
                         segment.substring))
        }
    }
}
