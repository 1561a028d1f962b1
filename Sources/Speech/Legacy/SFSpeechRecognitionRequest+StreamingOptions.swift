import Foundation
import SpeechEngine

extension SFSpeechRecognitionRequest {
    /// Apple caps contextual strings at 100.
    static let contextualStringLimit = 100

    /// The engine options for this request in `language` (a Whisper code).
    ///
    /// Contextual strings (first 100) and the custom language model's
    /// phrases become biasing phrases; `addsPunctuation` and partial results
    /// pass through; a server-style task (not on-device) gets the
    /// one-minute limit, rolling over only when asked.
    /// - Throws: `SFSpeechError(.malformedSupplementalModel)` when the custom
    ///   language model files cannot be used.
    func streamingOptions(language: String) throws -> StreamingOptions {
        var transcription = TranscriptionOptions()
        transcription.language = language
        transcription.addsPunctuation = addsPunctuation
        transcription.alternativeCount = 3
        var phrases = contextualStrings.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
            .prefix(Self.contextualStringLimit)
            .map { $0 }
        if let model = customizedLanguageModel {
            let prepared = try CustomLanguageModelFile.preparedPhrases(languageModel: model.languageModel,
                                                                       vocabulary: model.vocabulary)
            phrases += prepared.filter { !phrases.contains($0) }
            // weight 0…1 scales the boost around its default (0.5 → default).
            transcription.phraseBoost *= 2 * model.effectiveWeight
        }
        transcription.phrases = phrases

        var options = StreamingOptions(transcription: transcription)
        options.reportsVolatileResults = shouldReportPartialResults
        if !requiresOnDeviceRecognition {
            options.maximumDurationSeconds = maximumRecognitionDuration
            options.rollsOverAtLimit = rollsOverAtRecognitionLimit
        }
        return options
    }
}
