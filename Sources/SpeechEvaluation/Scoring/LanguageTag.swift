import Foundation

/// Language tags as the scorer needs them.
public enum LanguageTag {
    /// Languages scored by characters rather than words.
    public static let characterScoredLanguages: Set<String> = ["ja", "zh", "ko", "yue", "th", "lo", "my"]

    /// The primary language subtag of a BCP-47 tag, lower-cased:
    /// "en-US" → "en", "zh_Hans_CN" → "zh", "EN" → "en".
    public static func baseLanguage(of tag: String) -> String {
        let trimmed = tag.trimmingCharacters(in: .whitespaces)
        let base = trimmed.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? trimmed
        return base.lowercased()
    }

    /// The unit a language's error rate counts.
    public static func scoringUnit(for tag: String) -> ScoringUnit {
        characterScoredLanguages.contains(baseLanguage(of: tag)) ? .characters : .words
    }
}
