// Before: the legacy readiness checks — ask for permission, check the locale
// is supported and the recognizer available, then recognize.

import Foundation
import Speech

enum Before {
    static func transcribe(_ url: URL) async throws {
        let status = await withCheckedContinuation { continuation in
            SFSpeechRecognizer.requestAuthorization { continuation.resume(returning: $0) }
        }
        print("AUTHORIZATION: \(status)")
        guard status == .authorized else { throw ExampleError("speech recognition is not authorized") }

        let locale = Locale(identifier: "en-US")
        guard SFSpeechRecognizer.supportedLocales().contains(locale),
              let recognizer = SFSpeechRecognizer(locale: locale) else {
            throw ExampleError("\(locale.identifier) is not supported")
        }
        print("AVAILABLE: \(recognizer.isAvailable) ON-DEVICE: \(recognizer.supportsOnDeviceRecognition)")
        guard recognizer.isAvailable else { throw ExampleError("the recognizer is not available") }
        print("READY")

        recognizer.queue = OperationQueue()
        let request = SFSpeechURLRecognitionRequest(url: url)
        request.requiresOnDeviceRecognition = true
        let text: String = try await withCheckedThrowingContinuation { continuation in
            recognizer.recognitionTask(with: request) { result, error in
                if let error { continuation.resume(throwing: error) }
                if let result, result.isFinal { continuation.resume(returning: result.bestTranscription.formattedString) }
            }
        }
        print("TRANSCRIPT: \(text)")
    }
}
