import Foundation

/// SpeechCompat's files behind `SFSpeechLanguageModel`: the training data an
/// app exports, and the prepared model a request's configuration names.
///
/// Apple's formats are private; these are JSON. Training data is
/// `{"phraseCounts": [{"phrase": …, "count": …}], "customPronunciations":
/// [{"grapheme": …, "phonemes": […]}]}` (plain text with one phrase per line
/// is accepted too). The prepared model keeps the most frequent phrases, the
/// vocabulary file the custom terms; both become decoder biasing phrases.
struct CustomLanguageModelFile: Codable, Sendable, Equatable {
    /// A phrase and how often it occurs in the training data.
    struct PhraseCount: Codable, Sendable, Equatable {
        var phrase: String
        var count: Int
    }

    /// A word with its pronunciation (X-SAMPA phonemes).
    struct Pronunciation: Codable, Sendable, Equatable {
        var grapheme: String
        var phonemes: [String]
    }

    var phraseCounts: [PhraseCount] = []
    var customPronunciations: [Pronunciation] = []

    init(phraseCounts: [PhraseCount] = [], customPronunciations: [Pronunciation] = []) {
        self.phraseCounts = phraseCounts
        self.customPronunciations = customPronunciations
    }

    /// Decodes training data; either list may be absent.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        phraseCounts = try container.decodeIfPresent([PhraseCount].self, forKey: .phraseCounts) ?? []
        customPronunciations = try container.decodeIfPresent([Pronunciation].self, forKey: .customPronunciations) ?? []
    }

    /// How many phrases a prepared model keeps (Apple's contextual-string cap).
    static let phraseLimit = 100

    /// Reads training data (JSON, or one phrase per line).
    /// - Throws: `SFSpeechError(.malformedSupplementalModel)` when the file has
    ///   no usable phrase or term; file-system errors when it cannot be read.
    static func readTrainingData(at url: URL) throws -> CustomLanguageModelFile {
        let data = try Data(contentsOf: url)
        let looksLikeJSON = data.first { !Character(UnicodeScalar($0)).isWhitespace }.map { $0 == UInt8(ascii: "{") } ?? false
        if looksLikeJSON {
            guard let decoded = try? JSONDecoder().decode(CustomLanguageModelFile.self, from: data) else {
                throw malformed(url, "it is not SpeechCompat training data JSON")
            }
            guard !decoded.phraseCounts.isEmpty || !decoded.customPronunciations.isEmpty else {
                throw malformed(url, "it holds no phrases and no custom pronunciations")
            }
            return decoded
        }
        guard let text = String(data: data, encoding: .utf8) else { throw malformed(url, "it is not UTF-8 text") }
        var counts: [String: Int] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let phrase = line.trimmingCharacters(in: .whitespaces)
            if !phrase.isEmpty { counts[phrase, default: 0] += 1 }
        }
        guard !counts.isEmpty else { throw malformed(url, "it holds no phrases") }
        return CustomLanguageModelFile(phraseCounts: counts.map { PhraseCount(phrase: $0.key, count: $0.value) })
    }

    /// The most frequent phrases (ties in alphabetical order), at most `phraseLimit`.
    var rankedPhrases: [String] {
        var totals: [String: Int] = [:]
        for entry in phraseCounts where !entry.phrase.trimmingCharacters(in: .whitespaces).isEmpty {
            totals[entry.phrase, default: 0] += max(1, entry.count)
        }
        return totals.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(Self.phraseLimit).map(\.key)
    }

    /// Writes the prepared model (`rankedPhrases`) and, when asked, the vocabulary.
    func writePrepared(languageModel: URL, vocabulary: URL?) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(rankedPhrases).write(to: languageModel, options: .atomic)
        if let vocabulary {
            try encoder.encode(customPronunciations.map(\.grapheme)).write(to: vocabulary, options: .atomic)
        }
    }

    /// The biasing phrases of a prepared configuration: model phrases, then
    /// vocabulary terms.
    /// - Throws: `SFSpeechError(.malformedSupplementalModel)` when a file is
    ///   missing or not a prepared model.
    static func preparedPhrases(languageModel: URL, vocabulary: URL?) throws -> [String] {
        func strings(_ url: URL) throws -> [String] {
            guard let data = try? Data(contentsOf: url) else {
                throw malformed(url, "it cannot be read; prepare it with prepareCustomLanguageModel first")
            }
            guard let list = try? JSONDecoder().decode([String].self, from: data) else {
                throw malformed(url, "it is not a prepared language model")
            }
            return list
        }
        return try strings(languageModel) + (vocabulary.map(strings) ?? [])
    }

    private static func malformed(_ url: URL, _ reason: String) -> SFSpeechError {
        SFSpeechError(.malformedSupplementalModel, userInfo: [
            NSLocalizedDescriptionKey: "The custom language model file was malformed.",
            NSLocalizedFailureReasonErrorKey: "\(url.path): \(reason).",
        ])
    }
}
