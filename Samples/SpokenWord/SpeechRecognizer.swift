// The app half of Apple's SpokenWord sample: prepare the custom language
// model off the main thread, then recognize with `customizedLanguageModel`
// set on a request that stays on the device.

import Foundation
import Speech

@MainActor
final class SpeechRecognizer {
    private let speechRecognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US"))!

    // Where the prepared model and vocabulary live (the app's caches folder).
    private var lmConfiguration: SFSpeechLanguageModel.Configuration {
        let outputDir = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first!
            .appendingPathComponent("SpokenWord-\(ProcessInfo.processInfo.processIdentifier)")
        let dynamicLanguageModel = outputDir.appendingPathComponent("LM")
        let dynamicVocabulary = outputDir.appendingPathComponent("Vocab")
        return SFSpeechLanguageModel.Configuration(languageModel: dynamicLanguageModel, vocabulary: dynamicVocabulary)
    }

    /// Turns the exported training data into the configuration's files.
    func prepareCustomLanguageModel(assetUrl: URL) async throws {
        let configuration = lmConfiguration
        try await Task.detached {
            try await SFSpeechLanguageModel.prepareCustomLanguageModel(for: assetUrl,
                                                                       clientIdentifier: "com.example.SpokenWord",
                                                                       configuration: configuration)
        }.value
    }

    /// Recognizes a recorded file with the custom model (or without, to compare).
    func transcribe(_ url: URL, customized: Bool) async throws -> String {
        let recognitionRequest = SFSpeechURLRecognitionRequest(url: url)
        recognitionRequest.shouldReportPartialResults = false
        // Keep speech recognition data on device
        recognitionRequest.requiresOnDeviceRecognition = true
        if customized {
            recognitionRequest.customizedLanguageModel = self.lmConfiguration
        }
        return try await withCheckedThrowingContinuation { continuation in
            speechRecognizer.recognitionTask(with: recognitionRequest) { result, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let result, result.isFinal {
                    continuation.resume(returning: result.bestTranscription.formattedString)
                }
            }
        }
    }

    /// Removes the prepared files.
    func removePreparedModel() {
        try? FileManager.default.removeItem(at: lmConfiguration.languageModel.deletingLastPathComponent())
    }
}
