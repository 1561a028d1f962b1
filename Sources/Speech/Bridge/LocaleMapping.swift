import Foundation
internal import SpeechEngine

/// Whisper language codes ⇄ `Locale`s, compared through BCP-47 identifiers.
///
/// `Locale("en-US") != Locale("en_US")` in swift-foundation, and user locales
/// often carry keywords (`en_US@rg=dezzzz`, `@calendar=…`) or scripts
/// (`zh-Hans-CN`): every comparison here goes through the language and
/// region components, never through `Locale ==`.
enum LocaleMapping {
    /// Language codes Whisper spells differently from BCP-47, BCP-47 → Whisper.
    private static let whisperSpelling: [String: String] = [
        "jv": "jw",   // Javanese: Whisper keeps the deprecated "jw"
        "iw": "he", "in": "id", "ji": "yi",   // deprecated ISO 639 codes
        "nb": "no",   // Norwegian Bokmål is Whisper's "no"
        "fil": "tl",  // Filipino is served by Tagalog
        "mo": "ro",
    ]

    /// Every language some installable model decodes: Whisper's 99.
    static var whisperLanguages: [String] { WhisperLanguages.codes }

    /// The models that decode `language` (a Whisper code), preferred first:
    /// the English-only model serves English, the multilingual one everything.
    static func models(forLanguage language: String) -> [ModelName] {
        ModelName.allCases.filter { $0.isMultilingual || language == "en" }
            .sorted { $0.isMultilingual && !$1.isMultilingual }
    }

    /// Whether recognition of `locale` can run with the models in `store`:
    /// the language is a Whisper language and whisper-base, which the engine
    /// session always finalizes with, is installed (whisper-tiny.en only
    /// speeds up English partial results).
    static func isInstalled(_ locale: Locale, in store: AssetStore = .default) -> Bool {
        guard whisperLanguage(for: locale, among: whisperLanguages) != nil else { return false }
        return store.isInstalled(.whisperBase)
    }

    /// The Whisper code of a locale's language, if `languages` holds it.
    /// - Parameter languages: the Whisper codes the models can decode.
    static func whisperLanguage(for locale: Locale, among languages: some Collection<String>) -> String? {
        guard let language = languageCode(of: locale) else { return nil }
        let candidates = [whisperSpelling[language], language].compactMap { $0 }
        return candidates.first { languages.contains($0) }
    }

    /// The BCP-47 language of a Whisper code ("jw" → "jv").
    static func bcp47Language(forWhisper code: String) -> String {
        code == "jw" ? "jv" : code
    }

    /// Lower-cased language subtag of a locale, from its BCP-47 identifier.
    static func languageCode(of locale: Locale) -> String? {
        let parts = subtags(of: locale)
        return parts.first.map { $0.lowercased() }
    }

    /// Upper-cased region subtag of a locale's language (not the `@rg=`
    /// regional-preferences override, which is about formats, not speech), or nil.
    static func regionCode(of locale: Locale) -> String? {
        if let region = locale.language.region?.identifier, !region.isEmpty { return region.uppercased() }
        let parts = subtags(of: locale).dropFirst()
        return parts.first { ($0.count == 2 && $0.allSatisfy(\.isLetter)) || ($0.count == 3 && $0.allSatisfy(\.isNumber)) }?
            .uppercased()
    }

    /// `language-REGION` (or `language`) for a locale: the key locales are
    /// compared by, ignoring scripts, keywords and the `_`/`-` spelling.
    static func key(of locale: Locale) -> String {
        let language = languageCode(of: locale) ?? ""
        guard let region = regionCode(of: locale) else { return language }
        return "\(language)-\(region)"
    }

    /// Whether two locales name the same language and region.
    static func matches(_ lhs: Locale, _ rhs: Locale) -> Bool {
        key(of: lhs) == key(of: rhs)
    }

    /// Every locale with a region whose language is one of `languages`:
    /// the regions ICU knows for each language (`en-US`, `en-GB`, `fr-CA`, …),
    /// as BCP-47 `Locale`s without scripts or keywords.
    static func supportedLocales(languages: some Collection<String>) -> Set<Locale> {
        var byLanguage: [String: Set<String>] = [:]
        for identifier in Locale.availableIdentifiers {
            let locale = Locale(identifier: identifier)
            guard let language = languageCode(of: locale), let region = regionCode(of: locale),
                  region.count == 2 else { continue }
            byLanguage[language, default: []].insert(region)
        }
        var result = Set<Locale>()
        for code in languages {
            let language = bcp47Language(forWhisper: code)
            let regions = byLanguage[language] ?? []
            if regions.isEmpty {
                result.insert(Locale(identifier: language))
            }
            for region in regions {
                result.insert(Locale(identifier: "\(language)-\(region)"))
            }
        }
        return result
    }

    /// The member of `supported` equivalent to `locale`: same language and
    /// region, else (when `fallingBackToLanguage`) the same language in its
    /// most common region, else nil.
    static func supportedLocale(equivalentTo locale: Locale, in supported: Set<Locale>,
                                fallingBackToLanguage: Bool = true) -> Locale? {
        let wanted = key(of: locale)
        if let exact = supported.first(where: { key(of: $0) == wanted }) { return exact }
        guard fallingBackToLanguage, let language = languageCode(of: locale) else { return nil }
        let sameLanguage = supported.filter { languageCode(of: $0) == language }
        guard !sameLanguage.isEmpty else { return nil }
        let preferred = Locale(identifier: language).maximalIdentifierKey
        return sameLanguage.first { key(of: $0) == preferred }
            ?? sameLanguage.min { key(of: $0) < key(of: $1) }
    }

    private static func subtags(of locale: Locale) -> [Substring] {
        var identifier = locale.identifier(.bcp47)
        if identifier.isEmpty || identifier == "und" { identifier = locale.identifier }
        let base = identifier.split(separator: "@").first.map(String.init) ?? identifier
        let parts = base.split(whereSeparator: { $0 == "-" || $0 == "_" })
        // Drop the Unicode extension ("-u-rg-…") and private-use tails.
        if let extensionStart = parts.firstIndex(where: { $0.count == 1 }) {
            return Array(parts[..<extensionStart])
        }
        return parts
    }
}

extension Locale {
    /// `language-REGION` of the locale's likely full form (`en` → `en-US`).
    fileprivate var maximalIdentifierKey: String {
        let language = LocaleMapping.languageCode(of: self) ?? ""
        let maximal = Locale.Language(identifier: language).maximalIdentifier
        let region = Locale.Language(identifier: maximal).region?.identifier
        return region.map { "\(language)-\($0.uppercased())" } ?? language
    }
}
