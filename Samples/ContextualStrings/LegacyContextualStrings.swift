// The legacy face: contextualStrings on the request favour phrases outside
// the usual vocabulary (names, jargon). Keep them short, at most 100.

import Foundation
import Speech

enum LegacyContextualStrings {
    static func run(_ url: URL, phrases: [String]) async throws {
        guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")) else {
            throw SampleError("en-US is not supported")
        }
        recognizer.queue = OperationQueue()
        let request = SFSpeechURLRecognitionRequest(url: url)
        request.requiresOnDeviceRecognition = true
        request.addsPunctuation = true
        request.contextualStrings = phrases
        let result: SFSpeechRecognitionResult = try await withCheckedThrowingContinuation { continuation in
            recognizer.recognitionTask(with: request) { result, error in
                if let error { continuation.resume(throwing: error) }
                if let result, result.isFinal { continuation.resume(returning: result) }
            }
        }
        let text = result.bestTranscription.formattedString
        print("PHRASES: \(phrases.joined(separator: " | "))")
        print("TRANSCRIPT: \(text)")
        for phrase in phrases {
            print("FOUND \(text.localizedCaseInsensitiveContains(phrase) ? "yes" : "no"): \(phrase)")
        }
    }
}
