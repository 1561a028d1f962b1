import Foundation
import SpeechEngine

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

    /// The streaming options for one engine session of this transcriber.
    ///
    /// - Parameters:
    ///   - phrases: the analysis context's contextual strings.
    ///   - detector: the settings of a speech detector in the same analyzer.
    /// - Throws: `SFSpeechError` when the custom language model's files
    ///   cannot be read.
    func streamingOptions(phrases: [String], detector: DetectorSettings?) throws -> StreamingOptions {
        var transcription = prefersLowLatency ? TranscriptionOptions.greedy : TranscriptionOptions()
        transcription.language = ModernLocales.languageCode(for: locale)
        transcription.phrases = phrases
        if let model = customLanguageModel {
            let prepared = try CustomLanguageModelFile.preparedPhrases(languageModel: model.languageModel,
                                                                       vocabulary: model.vocabulary)
            transcription.phrases += prepared.filter { !phrases.contains($0) }
            // weight 0…1 scales the boost around its default (0.5 → default).
            transcription.phraseBoost *= 2 * model.weight
        }
        transcription.addsPunctuation = addsPunctuation
        transcription.alternativeCount = reportsAlternatives ? Self.alternativeCount : 1
        if reportsAlternatives { transcription.beamSize = max(transcription.beamSize, Self.alternativeCount) }
        transcription.wordTimestamps = attributesTimeRanges || attributesConfidence
        if let detector {
            transcription.noSpeechThreshold = detector.sensitivity.noSpeechThreshold
        }
        var options = StreamingOptions(transcription: transcription)
        options.reportsVolatileResults = reportsVolatileResults
        options.volatileIntervalSeconds = prefersLowLatency ? 0.25 : 0.5
        options.maximumDurationSeconds = nil
        options.rollsOverAtLimit = false
        return options
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
