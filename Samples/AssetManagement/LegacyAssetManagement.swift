// The legacy face: readiness is permission plus availability. Supported
// locales, on-device support and availability are queried on the recognizer;
// a delegate hears when availability changes.

import Foundation
import Speech

enum LegacyAssetManagement {
    static func run(_ url: URL) async throws {
        let status = await withCheckedContinuation { continuation in
            SFSpeechRecognizer.requestAuthorization { continuation.resume(returning: $0) }
        }
        print("AUTHORIZATION: \(status)")
        let supported = SFSpeechRecognizer.supportedLocales()
        print("SUPPORTED-LOCALES: \(supported.count)")
        guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")) else {
            throw SampleError("en-US is not supported")
        }
        print("LOCALE: \(recognizer.locale.identifier)")
        print("AVAILABLE: \(recognizer.isAvailable)")
        print("ON-DEVICE: \(recognizer.supportsOnDeviceRecognition)")
        guard status == .authorized, recognizer.isAvailable else {
            throw SampleError("not ready: install a model with `speech assets install whisper-base`")
        }
        recognizer.queue = OperationQueue()
        let request = SFSpeechURLRecognitionRequest(url: url)
        request.requiresOnDeviceRecognition = recognizer.supportsOnDeviceRecognition
        let text: String = try await withCheckedThrowingContinuation { continuation in
            recognizer.recognitionTask(with: request) { result, error in
                if let error { continuation.resume(throwing: error) }
                if let result, result.isFinal { continuation.resume(returning: result.bestTranscription.formattedString) }
            }
        }
        print("TRANSCRIPT: \(text)")
    }
}
