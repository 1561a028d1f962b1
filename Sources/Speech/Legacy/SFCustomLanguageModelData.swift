import Foundation

/// An object that generates and exports custom language model training data.
///
/// Build one with the result-builder initializer (phrase counts, templates
/// with classes, custom pronunciations), or insert data one item at a time;
/// then `export(to:)` writes the training-data file that
/// `SFSpeechLanguageModel.prepareCustomLanguageModel(for:clientIdentifier:configuration:)`
/// turns into a language model and vocabulary.
/// - Note: On Linux the exported file is SpeechCompat's own JSON (Apple's
///   binary layout is private): the phrase counts summed per phrase, most
///   frequent first; the templates' expansions apart, with each class value
///   and how many samples use it; and the custom pronunciations. Template
///   generators are expanded when exporting. The class is safe to share across tasks (its
///   storage is locked), which Swift 6 code calling `export(to:)` from the
///   main actor relies on.
@available(macOS 14, iOS 17, visionOS 1.1, *)
public class SFCustomLanguageModelData: Hashable, Codable, @unchecked Sendable {
    // @unchecked: the mutable storage below is only touched under `lock`.

    /// The region and language of the training data.
    public final let locale: Locale
    /// Identifies the resulting language model on the device that prepares it.
    public final let identifier: String
    /// Distinguishes versions of the language model on that device.
    public final let version: String

    private let lock = NSLock()
    private var phraseCounts: [PhraseCount] = []
    private var generators: [PhraseCountGenerator] = []
    private var terms: [CustomPronunciation] = []

    /// Constructs an empty data container.
    ///
    /// - Parameters:
    ///   - locale: the training data's region and language (use the same for
    ///     the `SFSpeechRecognizer`).
    ///   - identifier: identifies the resulting model on the device.
    ///   - version: distinguishes versions of the model.
    public init(locale: Locale, identifier: String, version: String) {
        self.locale = locale
        self.identifier = identifier
        self.version = version
    }

    /// Constructs a data container filled by a builder of phrase counts,
    /// templates and custom pronunciations.
    public convenience init(locale: Locale, identifier: String, version: String,
                            @SFCustomLanguageModelData.DataInsertableBuilder builder: () -> any DataInsertable) {
        self.init(locale: locale, identifier: identifier, version: version)
        builder().insert(data: self)
    }

    /// Lists the X-SAMPA symbols that custom pronunciations may use in `locale`.
    ///
    /// - Note: On Linux the lists are SpeechCompat's (Apple does not publish
    ///   its own): English, Spanish, French, German, Italian and Portuguese
    ///   inventories; other languages return an empty list. A symbol may carry
    ///   a stress mark (`"` or `%`) in front; `.` separates syllables.
    public static func supportedPhonemes(locale: Locale) -> [String] {
        PhonemeInventory.symbols(for: locale)
    }

    /// Adds a sample of text to the training data.
    public func insert(phraseCount: SFCustomLanguageModelData.PhraseCount) {
        lock.withLock { phraseCounts.append(phraseCount) }
    }

    /// Adds a stream of samples to the training data.
    /// - Note: The generator is iterated when the data is exported.
    public func insert(phraseCountGenerator: SFCustomLanguageModelData.PhraseCountGenerator) {
        lock.withLock { generators.append(phraseCountGenerator) }
    }

    /// Adds a custom term (a written form and its X-SAMPA pronunciations).
    /// - Note: Pronunciations with symbols outside `supportedPhonemes(locale:)`
    ///   are ignored when the model is prepared, as on Apple platforms.
    public func insert(term: SFCustomLanguageModelData.CustomPronunciation) {
        lock.withLock { terms.append(term) }
    }

    /// Exports the accumulated data to a file for
    /// `SFSpeechLanguageModel.prepareCustomLanguageModel`.
    ///
    /// - Throws: `SFSpeechError(.undefinedTemplateClassName)` when a template
    ///   names a class that was not defined; file-system errors when the file
    ///   or its folder cannot be written.
    public func export(to path: URL) async throws {
        let (counts, generators, terms) = lock.withLock { (phraseCounts, self.generators, self.terms) }
        var exact = counts.map { ($0.phrase, $0.count) }
        var generated: [(String, Int)] = []
        var values: [String: Int] = [:]
        for generator in generators {
            if let templates = generator as? TemplatePhraseCountGenerator {
                let parts = try templates.exportParts()
                exact += parts.literal.map { ($0.phrase, $0.count) }
                generated += parts.generated.map { ($0.phrase, $0.count) }
                values.merge(parts.values) { $0 &+ $1 }
            } else {
                for try await phraseCount in generator { generated.append((phraseCount.phrase, phraseCount.count)) }
            }
        }
        let file = CustomLanguageModelFile.trainingData(
            locale: locale, identifier: identifier, version: version, phraseCounts: exact,
            generatedPhraseCounts: generated, templateValues: values.map { ($0.key, $0.value) },
            pronunciations: terms.map { ($0.grapheme, $0.phonemes) })
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try file.writeTrainingData(to: path)
    }

    /// Equal when locale, identifier, version and all inserted data are equal.
    public static func == (lhs: SFCustomLanguageModelData, rhs: SFCustomLanguageModelData) -> Bool {
        if lhs === rhs { return true }
        return lhs.locale.identifier == rhs.locale.identifier && lhs.identifier == rhs.identifier
            && lhs.version == rhs.version && lhs.contents == rhs.contents
    }

    /// Hashes locale, identifier, version and the inserted data.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(locale.identifier)
        hasher.combine(identifier)
        hasher.combine(version)
        let contents = self.contents
        hasher.combine(contents.phraseCounts)
        hasher.combine(contents.generators)
        hasher.combine(contents.terms)
    }

    private var contents: Contents {
        lock.withLock { Contents(phraseCounts: phraseCounts, generators: generators, terms: terms) }
    }

    private struct Contents: Equatable {
        var phraseCounts: [PhraseCount]
        var generators: [PhraseCountGenerator]
        var terms: [CustomPronunciation]
    }

    private enum CodingKeys: String, CodingKey {
        case locale, identifier, version, phraseCounts, generators, customPronunciations
    }

    /// Encodes the container, its data and its (unexpanded) template generators.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let contents = self.contents
        try container.encode(locale.identifier, forKey: .locale)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(version, forKey: .version)
        try container.encode(contents.phraseCounts, forKey: .phraseCounts)
        try container.encode(contents.generators.map(TemplatePhraseCountGenerator.encodable), forKey: .generators)
        try container.encode(contents.terms, forKey: .customPronunciations)
    }

    /// Decodes a container written by `encode(to:)`.
    public required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        locale = Locale(identifier: try container.decode(String.self, forKey: .locale))
        identifier = try container.decode(String.self, forKey: .identifier)
        version = try container.decode(String.self, forKey: .version)
        phraseCounts = try container.decodeIfPresent([PhraseCount].self, forKey: .phraseCounts) ?? []
        generators = try container.decodeIfPresent([TemplatePhraseCountGenerator].self, forKey: .generators) ?? []
        terms = try container.decodeIfPresent([CustomPronunciation].self, forKey: .customPronunciations) ?? []
    }
}
