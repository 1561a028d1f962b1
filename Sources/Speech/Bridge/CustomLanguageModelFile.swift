import Foundation

/// SpeechCompat's files behind custom language models: the training data
/// `SFCustomLanguageModelData.export(to:)` writes, and the prepared language
/// model and vocabulary that `SFSpeechLanguageModel.prepareCustomLanguageModel`
/// makes from it and a request's configuration names.
///
/// Apple's formats are private; these are JSON, each with a `format` name and
/// `formatVersion`:
/// - training data: `{"format": "SpeechCompat.CustomLanguageModelData", "locale": …,
///   "identifier": …, "version": …, "phraseCounts": [{"phrase", "count"}],
///   "generatedPhraseCounts": [{"phrase", "count"}], "templateValues": [{"phrase", "count"}],
///   "customPronunciations": [{"grapheme", "phonemes": [X-SAMPA strings]}]}`
///   where `phraseCounts` are the phrases inserted as such (and literal
///   templates), `generatedPhraseCounts` the expansions of templates with
///   classes and `templateValues` the class values with how many samples use them
///   (older hand-written files without `format`/`locale`, and plain text with
///   one phrase per line, are read too);
/// - language model: `{"format": "SpeechCompat.PreparedLanguageModel", …,
///   "phrases": [{"phrase", "count"}], "values": [{"phrase", "count"}]}`, ranked;
/// - vocabulary: `{"format": "SpeechCompat.PreparedVocabulary", …,
///   "terms": [{"grapheme", "phonemes"}]}`, supported pronunciations only.
///
/// Both prepared files also read as a plain JSON array of strings.
struct CustomLanguageModelFile: Codable, Sendable, Equatable {
    /// A phrase and how often it occurs in the training data.
    struct PhraseCount: Codable, Sendable, Equatable {
        var phrase: String
        var count: Int
    }

    /// A word with its pronunciations (each an X-SAMPA string).
    struct Pronunciation: Codable, Sendable, Equatable {
        var grapheme: String
        var phonemes: [String]
    }

    static let trainingFormat = "SpeechCompat.CustomLanguageModelData"
    static let formatVersion = 1

    var format: String?
    var formatVersion: Int?
    /// The data's locale identifier; nil in hand-written files (then every
    /// pronunciation is kept).
    var locale: String?
    var identifier: String?
    var version: String?
    var phraseCounts: [PhraseCount] = []
    /// Expansions of templates with classes (kept for inspection; not biasing
    /// phrases, see `SFSpeechLanguageModel.prepare`).
    var generatedPhraseCounts: [PhraseCount] = []
    /// Template class values and how many samples use each.
    var templateValues: [PhraseCount] = []
    var customPronunciations: [Pronunciation] = []

    init(locale: String? = nil, identifier: String? = nil, version: String? = nil,
         phraseCounts: [PhraseCount] = [], generatedPhraseCounts: [PhraseCount] = [],
         templateValues: [PhraseCount] = [], customPronunciations: [Pronunciation] = []) {
        self.locale = locale
        self.identifier = identifier
        self.version = version
        self.phraseCounts = phraseCounts
        self.generatedPhraseCounts = generatedPhraseCounts
        self.templateValues = templateValues
        self.customPronunciations = customPronunciations
    }

    /// Decodes training data; every field may be absent.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decodeIfPresent(String.self, forKey: .format)
        formatVersion = try container.decodeIfPresent(Int.self, forKey: .formatVersion)
        locale = try container.decodeIfPresent(String.self, forKey: .locale)
        identifier = try container.decodeIfPresent(String.self, forKey: .identifier)
        version = try container.decodeIfPresent(String.self, forKey: .version)
        phraseCounts = try container.decodeIfPresent([PhraseCount].self, forKey: .phraseCounts) ?? []
        generatedPhraseCounts = try container.decodeIfPresent([PhraseCount].self, forKey: .generatedPhraseCounts) ?? []
        templateValues = try container.decodeIfPresent([PhraseCount].self, forKey: .templateValues) ?? []
        customPronunciations = try container.decodeIfPresent([Pronunciation].self, forKey: .customPronunciations) ?? []
    }

    /// How many phrases a prepared model keeps (Apple's contextual-string cap,
    /// which the engine also applies).
    static let phraseLimit = RecognitionConfiguration.phraseLimit
    /// How many characters of phrases `preparedPhrases` returns at most: the
    /// engine puts the phrases in Whisper's prompt, which keeps only its last
    /// 223 tokens (about 4 characters each), and contextual strings share it.
    static let characterBudget = 600

    /// Training data with the counts summed per phrase (blank phrases and
    /// non-positive counts dropped), most frequent first, ties alphabetical.
    static func trainingData(locale: Locale, identifier: String, version: String,
                             phraseCounts: [(phrase: String, count: Int)],
                             generatedPhraseCounts: [(phrase: String, count: Int)] = [],
                             templateValues: [(phrase: String, count: Int)] = [],
                             pronunciations: [(grapheme: String, phonemes: [String])]) -> CustomLanguageModelFile {
        var file = CustomLanguageModelFile(
            locale: locale.identifier, identifier: identifier, version: version,
            phraseCounts: summed(phraseCounts), generatedPhraseCounts: summed(generatedPhraseCounts),
            templateValues: summed(templateValues),
            customPronunciations: pronunciations.map { Pronunciation(grapheme: $0.grapheme, phonemes: $0.phonemes) })
        file.format = trainingFormat
        file.formatVersion = formatVersion
        return file
    }

    /// Counts summed per phrase (whitespace collapsed), most frequent first.
    private static func summed(_ counts: [(phrase: String, count: Int)]) -> [PhraseCount] {
        var totals: [String: Int] = [:]
        for (phrase, count) in counts {
            let text = phrase.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard !text.isEmpty, count > 0 else { continue }
            let (sum, overflow) = totals[text, default: 0].addingReportingOverflow(count)
            totals[text] = overflow ? Int.max : sum
        }
        return totals.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { PhraseCount(phrase: $0.key, count: $0.value) }
    }

    /// Writes the training data as JSON.
    func writeTrainingData(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: url, options: .atomic)
    }

    /// Reads training data (JSON, or one phrase per line).
    /// - Throws: `SFSpeechError(.malformedSupplementalModel)` when the file
    ///   cannot be read, is not training data, or has no phrase and no term.
    static func readTrainingData(at url: URL) throws -> CustomLanguageModelFile {
        guard let data = try? Data(contentsOf: url) else {
            throw malformed(url, "it cannot be read; export it with SFCustomLanguageModelData.export(to:)")
        }
        let looksLikeJSON = data.first { !Character(UnicodeScalar($0)).isWhitespace }.map { $0 == UInt8(ascii: "{") } ?? false
        if looksLikeJSON {
            guard let decoded = try? JSONDecoder().decode(CustomLanguageModelFile.self, from: data) else {
                throw malformed(url, "it is not SpeechCompat training data JSON")
            }
            if let format = decoded.format, format != trainingFormat {
                throw malformed(url, "its format is \(format), not \(trainingFormat)")
            }
            if let version = decoded.formatVersion, version > formatVersion {
                throw malformed(url, "it was written by a newer SpeechCompat (format version \(version))")
            }
            guard !decoded.phraseCounts.isEmpty || !decoded.templateValues.isEmpty
                    || !decoded.customPronunciations.isEmpty else {
                throw malformed(url, "it holds no phrases and no custom pronunciations")
            }
            return decoded
        }
        guard let text = String(data: data, encoding: .utf8) else { throw malformed(url, "it is not UTF-8 text") }
        let lines = text.split(whereSeparator: \.isNewline).map { (phrase: String($0), count: 1) }
        let file = trainingData(locale: Locale(identifier: ""), identifier: "", version: "", phraseCounts: lines,
                                pronunciations: [])
        guard !file.phraseCounts.isEmpty else { throw malformed(url, "it holds no phrases") }
        return CustomLanguageModelFile(phraseCounts: file.phraseCounts)
    }

    /// A prepared language model or vocabulary file.
    struct Prepared: Codable, Sendable, Equatable {
        static let modelFormat = "SpeechCompat.PreparedLanguageModel"
        static let vocabularyFormat = "SpeechCompat.PreparedVocabulary"

        var format: String
        var formatVersion: Int = CustomLanguageModelFile.formatVersion
        var locale: String?
        var identifier: String?
        var version: String?
        /// Ranked phrases (language model files).
        var phrases: [PhraseCount]?
        /// Ranked template class values (language model files).
        var values: [PhraseCount]?
        /// Terms with their supported pronunciations (vocabulary files).
        var terms: [Pronunciation]?
    }

    /// The biasing phrases of a prepared configuration: the vocabulary's
    /// terms (written forms) first, then the model's template class values
    /// and its phrases, each in rank order;
    /// deduplicated ignoring case, at most `phraseLimit` phrases and
    /// `characterBudget` characters (the first phrase always).
    /// - Throws: `SFSpeechError(.malformedSupplementalModel)` when a file is
    ///   missing or not a prepared model.
    static func preparedPhrases(languageModel: URL, vocabulary: URL?) throws -> [String] {
        let model = try readPrepared(languageModel, format: Prepared.modelFormat)
        let terms = try vocabulary.map { try readPrepared($0, format: Prepared.vocabularyFormat) } ?? []
        var seen: Set<String> = []
        var phrases: [String] = []
        var characters = 0
        for candidate in terms + model {
            let phrase = candidate.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard !phrase.isEmpty, seen.insert(phrase.lowercased()).inserted else { continue }
            let cost = phrase.count + (phrases.isEmpty ? 0 : 2)
            if !phrases.isEmpty, characters + cost > characterBudget { continue }
            phrases.append(phrase)
            characters += cost
            if phrases.count == phraseLimit { break }
        }
        return phrases
    }

    /// The strings of a prepared file: phrases for a model, graphemes for a
    /// vocabulary, or a plain JSON array of strings.
    private static func readPrepared(_ url: URL, format: String) throws -> [String] {
        guard let data = try? Data(contentsOf: url) else {
            throw malformed(url, "it cannot be read; prepare it with SFSpeechLanguageModel.prepareCustomLanguageModel first")
        }
        if let list = try? JSONDecoder().decode([String].self, from: data) { return list }
        guard let prepared = try? JSONDecoder().decode(Prepared.self, from: data), prepared.format == format else {
            throw malformed(url, "it is not a prepared \(format == Prepared.modelFormat ? "language model" : "vocabulary"); "
                + "prepare it with SFSpeechLanguageModel.prepareCustomLanguageModel")
        }
        return format == Prepared.modelFormat ? ((prepared.values ?? []) + (prepared.phrases ?? [])).map(\.phrase)
            : (prepared.terms ?? []).map(\.grapheme)
    }

    /// `SFSpeechError(.malformedSupplementalModel)` naming `url` and why.
    static func malformed(_ url: URL, _ reason: String) -> SFSpeechError {
        SFSpeechError(.malformedSupplementalModel, userInfo: [
            NSLocalizedDescriptionKey: "The custom language model file was malformed.",
            NSLocalizedFailureReasonErrorKey: "\(url.path): \(reason).",
        ])
    }
}
