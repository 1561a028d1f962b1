import Foundation

@available(macOS 14, iOS 17, visionOS 1.1, *)
extension SFCustomLanguageModelData {
    /// A phrase used to bias the language model, with a weight (how often it
    /// occurs) that sets the relative strength of the bias.
    ///
    /// - Note: On Linux the prepared model keeps the most frequent phrases
    ///   (counts summed per phrase), which become decoder biasing phrases.
    public struct PhraseCount: Hashable, Sendable, CustomStringConvertible, Codable, DataInsertable {
        /// The phrase's text.
        public let phrase: String
        /// How many times the phrase occurs in the training data.
        public let count: Int

        /// A phrase and its count.
        public init(phrase: String, count: Int) {
            self.phrase = phrase
            self.count = count
        }

        /// The phrase and its count, for logs.
        public var description: String { "PhraseCount(phrase: \"\(phrase)\", count: \(count))" }

        /// Adds the phrase count to `data` (what the result builder calls).
        public func insert(data: SFCustomLanguageModelData) {
            data.insert(phraseCount: self)
        }
    }

    /// A term to be introduced into the recognizer's vocabulary: its written
    /// form and zero or more X-SAMPA pronunciations (space-separated symbols,
    /// e.g. `"w I n aU @r"`).
    ///
    /// Pronunciations that use symbols outside
    /// `SFCustomLanguageModelData.supportedPhonemes(locale:)` are ignored.
    /// - Note: On Linux the Whisper engine has no pronunciation lexicon: the
    ///   written form (`grapheme`) biases decoding, so the term is spelled as
    ///   given. A term whose pronunciations are all unsupported is ignored,
    ///   as Apple ignores such pronunciations.
    public struct CustomPronunciation: Hashable, Sendable, CustomStringConvertible, Codable, DataInsertable {
        /// The written form of the term, as it should appear in transcriptions.
        public let grapheme: String
        /// Zero or more pronunciations of the term, each an X-SAMPA string.
        public let phonemes: [String]

        /// A term and its pronunciations.
        public init(grapheme: String, phonemes: [String]) {
            self.grapheme = grapheme
            self.phonemes = phonemes
        }

        /// The term and its pronunciations, for logs.
        public var description: String {
            "CustomPronunciation(grapheme: \"\(grapheme)\", phonemes: \(phonemes))"
        }

        /// Adds the term to `data` (what the result builder calls).
        public func insert(data: SFCustomLanguageModelData) {
            data.insert(term: self)
        }
    }
}
