// Before: the legacy file pattern — a recognizer, a URL request and a result
// handler; the final result's segments carry each word's time and confidence.

import Foundation
import Speech

enum Before {
    static func transcribe(_ url: URL) async throws {
        guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")) else {
            throw ExampleError("en-US is not supported")
        }
        guard recognizer.isAvailable else { throw ExampleError("no model installed: speech assets install whisper-base") }
        recognizer.queue = OperationQueue()        // a command-line tool has no main run loop

        let request = SFSpeechURLRecognitionRequest(url: url)
        request.requiresOnDeviceRecognition = true  // no one-minute limit
        request.addsPunctuation = true
        request.shouldReportPartialResults = false

        let result: SFSpeechRecognitionResult = try await withCheckedThrowingContinuation { continuation in
            recognizer.recognitionTask(with: request) { result, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let result, result.isFinal {
                    continuation.resume(returning: result)
                }
            }
        }

        let transcription = result.bestTranscription
        print("TRANSCRIPT: \(transcription.formattedString)")
        for segment in transcription.segments {
            print(String(format: "WORD %.3f %.3f %.3f %@", segment.timestamp, segment.duration,
                         segment.confidence, segment.substring))
        }
    }
}
