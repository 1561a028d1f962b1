import Foundation
internal import SpeechEngine

/// The one place a face's configuration becomes engine options.
enum ConfigurationMapping {
    /// Engine options for `configuration` in `locale` (its Whisper language; nil when no model knows it).
    ///
    /// Contextual strings (trimmed, first 100) and the custom language
    /// model's phrases become biasing phrases; the model's weight 0…1 scales
    /// the boost around its default (0.5 keeps it).
    /// - Throws: `SFSpeechError(.malformedSupplementalModel)` when the custom
    ///   language model files cannot be used.
    static func streamingOptions(for configuration: RecognitionConfiguration, locale: Locale?) throws
        -> StreamingOptions {
        var transcription = configuration.prefersLowLatency ? TranscriptionOptions.greedy : TranscriptionOptions()
        transcription.language = locale.flatMap {
            LocaleMapping.whisperLanguage(for: $0, among: LocaleMapping.whisperLanguages)
        }
        var phrases = configuration.phrases.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
            .prefix(RecognitionConfiguration.phraseLimit)
            .map { $0 }
        if let model = configuration.customLanguageModel {
            let prepared = try CustomLanguageModelFile.preparedPhrases(languageModel: model.languageModel,
                                                                       vocabulary: model.vocabulary)
            phrases += prepared.filter { !phrases.contains($0) }
            transcription.phraseBoost *= 2 * model.weight
        }
        transcription.phrases = phrases
        transcription.addsPunctuation = configuration.addsPunctuation
        transcription.alternativeCount = max(1, configuration.alternativeCount)
        if configuration.alternativeCount > 1 {
            transcription.beamSize = max(transcription.beamSize, configuration.alternativeCount)
        }
        transcription.wordTimestamps = configuration.wordTimestamps
        if let threshold = configuration.noSpeechThreshold { transcription.noSpeechThreshold = threshold }
        var options = StreamingOptions(transcription: transcription)
        options.reportsVolatileResults = configuration.reportsVolatileResults
        options.volatileIntervalSeconds = configuration.prefersLowLatency ? 0.25 : 0.5
        return options
    }
}

extension RecognitionConfiguration {
    /// Checks that the engine can take this configuration in `locale`, as
    /// the engine backend does when it starts; a test's fake backend factory
    /// calls it so that it rejects what the engine rejects.
    /// - Throws: `SFSpeechError(.malformedSupplementalModel)` when the custom
    ///   language model files cannot be used.
    package func validate(for locale: Locale) throws {
        _ = try ConfigurationMapping.streamingOptions(for: self, locale: locale)
    }
}
