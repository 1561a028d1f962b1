/// Scores a hypothesis against a reference the way Whisper's evaluation
/// does: both are normalised for their language (``EnglishTextNormalizer``
/// for English, ``BasicTextNormalizer`` otherwise), then aligned by words, or
/// by characters with spaces removed for Japanese, Chinese and Korean.
public struct TranscriptScorer: Sendable {
    private let english = EnglishTextNormalizer()
    private let basic = BasicTextNormalizer()

    /// Creates a scorer.
    public init() {}

    /// The normaliser used for a BCP-47 language tag.
    public func normalizer(for languageTag: String) -> any TextNormalizing {
        LanguageTag.baseLanguage(of: languageTag) == "en" ? english : basic
    }

    /// Normalises `text` for `languageTag` and splits it into scoring units.
    public func units(of text: String, languageTag: String) -> [String] {
        let normalized = normalizer(for: languageTag).normalize(text)
        switch LanguageTag.scoringUnit(for: languageTag) {
        case .words:
            return normalized.split(separator: " ").map(String.init)
        case .characters:
            return normalized.filter { !$0.isWhitespace }.map(String.init)
        }
    }

    /// Aligns the normalised hypothesis against the normalised reference.
    public func alignment(reference: String, hypothesis: String, languageTag: String) -> Alignment<String> {
        Alignment(reference: units(of: reference, languageTag: languageTag),
                  hypothesis: units(of: hypothesis, languageTag: languageTag))
    }

    /// The error counts of `hypothesis` against `reference`, and their unit.
    public func score(reference: String, hypothesis: String, languageTag: String) -> ClipScore {
        ClipScore(unit: LanguageTag.scoringUnit(for: languageTag),
                  counts: alignment(reference: reference, hypothesis: hypothesis, languageTag: languageTag).counts)
    }
}
