import Foundation

/// What a transcriber module (`SpeechTranscriber` or `DictationTranscriber`)
/// was configured with, in the analyzer's terms.
struct TranscriberSettings: Sendable, Hashable {
    /// The locale to transcribe.
    var locale: Locale
    /// Publish volatile results.
    var reportsVolatileResults = false
    /// Publish alternative transcriptions.
    var reportsAlternatives = false
    /// Prefer latency over accuracy (`fastResults`, `frequentFinalization`).
    var prefersLowLatency = false
    /// Put `audioTimeRange` on each word.
    var attributesTimeRanges = false
    /// Put `transcriptionConfidence` on each word.
    var attributesConfidence = false
    /// Mask expletives.
    var masksExpletives = false
    /// Keep the model's punctuation (otherwise it is removed).
    var addsPunctuation = true
    /// Turn spoken emoji names into emoji.
    var convertsEmoji = false
    /// A custom language model whose phrases bias decoding.
    var customLanguageModel: CustomLanguageModelSettings?

    /// How many alternatives to ask the engine for when alternatives are on.
    static let alternativeCount = 3

    /// What the Bridge needs to recognize for this transcriber.
    ///
    /// - Parameters:
    ///   - phrases: the analysis context's contextual strings.
    ///   - detector: the settings of a speech detector in the same analyzer.
    func configuration(phrases: [String], detector: DetectorSettings?) -> RecognitionConfiguration {
        var configuration = RecognitionConfiguration()
        configuration.prefersLowLatency = prefersLowLatency
        configuration.phrases = phrases
        configuration.customLanguageModel = customLanguageModel.map {
            .init(languageModel: $0.languageModel, vocabulary: $0.vocabulary, weight: $0.weight)
        }
        configuration.addsPunctuation = addsPunctuation
        configuration.alternativeCount = reportsAlternatives ? Self.alternativeCount : 1
        configuration.wordTimestamps = attributesTimeRanges || attributesConfidence
        configuration.noSpeechThreshold = detector?.sensitivity.noSpeechThreshold
        configuration.reportsVolatileResults = reportsVolatileResults
        return configuration
    }
}

/// A custom language model given to a dictation transcriber.
struct CustomLanguageModelSettings: Sendable, Hashable {
    /// The prepared language model file.
    var languageModel: URL
    /// The prepared vocabulary file, if any.
    var vocabulary: URL?
    /// How strongly the model biases decoding, 0…1 (0.5 by default).
    var weight: Double
}

extension SpeechDetector.SensitivityLevel {
    /// Whisper's no-speech threshold for this sensitivity: a window counts as
    /// silence when its no-speech probability is above it, so a higher
    /// threshold lets more audio count as speech.
    var noSpeechThreshold: Double {
        switch self {
        case .low: return 0.4
        case .medium: return 0.6
        case .high: return 0.8
        }
    }
}
