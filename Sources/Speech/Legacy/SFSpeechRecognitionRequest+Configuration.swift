import Foundation

extension SFSpeechRecognitionRequest {
    /// What this request asks of the recognizer, in the Bridge's terms:
    /// contextual strings and the custom language model, punctuation,
    /// partial results, and three alternatives for `transcriptions`.
    package func recognitionConfiguration() -> RecognitionConfiguration {
        var configuration = RecognitionConfiguration()
        configuration.phrases = contextualStrings
        if let model = customizedLanguageModel {
            configuration.customLanguageModel = .init(languageModel: model.languageModel, vocabulary: model.vocabulary,
                                                      weight: model.effectiveWeight)
        }
        configuration.addsPunctuation = addsPunctuation
        configuration.alternativeCount = 3
        configuration.reportsVolatileResults = shouldReportPartialResults
        return configuration
    }

    /// The stream time at which a server-style task stops (or rolls over);
    /// nil for on-device tasks, which have no limit.
    var recognitionLimitSeconds: Double? {
        requiresOnDeviceRecognition ? nil : maximumRecognitionDuration
    }
}
