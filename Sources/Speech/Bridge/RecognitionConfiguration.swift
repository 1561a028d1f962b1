import Foundation
internal import SpeechEngine

/// One description of a recognition, built by either face from its own
/// options: what the Bridge needs to set the engine up.
package struct RecognitionConfiguration: Sendable, Hashable {
    /// Contextual strings (legacy `contextualStrings`, modern `AnalysisContext`).
    package var phrases: [String] = []
    /// A prepared custom language model whose phrases bias decoding.
    package var customLanguageModel: CustomLanguageModel?
    /// Keep the model's punctuation (otherwise it is removed).
    package var addsPunctuation = true
    /// Report volatile (partial) results.
    package var reportsVolatileResults = true
    /// Prefer latency over accuracy: greedy decoding, volatile results twice as often.
    package var prefersLowLatency = false
    /// Whole-transcript alternatives wanted (1: the best only).
    package var alternativeCount = 1
    /// Compute word timing and confidence.
    package var wordTimestamps = true
    /// Whisper's no-speech threshold, when a speech detector sets one.
    package var noSpeechThreshold: Double?

    package init() {}

    /// A custom language model's prepared files.
    package struct CustomLanguageModel: Sendable, Hashable {
        /// The prepared language model file.
        package var languageModel: URL
        /// The prepared vocabulary file, if any.
        package var vocabulary: URL?
        /// How strongly it biases decoding, 0…1 (0.5 by default).
        package var weight: Double

        package init(languageModel: URL, vocabulary: URL?, weight: Double) {
            self.languageModel = languageModel
            self.vocabulary = vocabulary
            self.weight = weight
        }
    }

    /// Apple caps contextual strings at 100; the engine takes as many.
    package static let phraseLimit = TranscriptionOptions.maximumPhraseCount
}
