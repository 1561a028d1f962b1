/// Turns transcript text into a canonical form before scoring, so that
/// differences of case, punctuation and spelling style are not counted as
/// recognition errors.
///
/// Two implementations follow the normalisers of OpenAI Whisper's evaluation
/// code: ``EnglishTextNormalizer`` for English and ``BasicTextNormalizer`` for
/// every other language.
public protocol TextNormalizing: Sendable {
    /// Returns `text` in canonical form: lower case, words separated by single
    /// spaces, no leading or trailing space.
    func normalize(_ text: String) -> String
}

/// Normalisation steps shared by the English and the basic normaliser.
enum NormalizationSteps {
    /// Removes spans between `[` `]`, `<` `>` and `(` `)`, brackets included,
    /// such as `[laughter]`, `<unk>` or `(inaudible)`.
    ///
    /// ref: whisper/normalizers/basic.py `re.sub(r"[<\[][^>\]]*[>\]]", "", s)`
    /// and `re.sub(r"\(([^)]+?)\)", "", s)`. An opening bracket with no
    /// closing one is left as it is (and later removed as a symbol).
    static func removingAnnotations(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let closers: Set<Character>
            switch character {
            case "[", "<": closers = ["]", ">"]
            case "(": closers = [")"]
            default:
                result.append(character)
                index = text.index(after: index)
                continue
            }
            let afterOpen = text.index(after: index)
            if let close = text[afterOpen...].firstIndex(where: { closers.contains($0) }),
               character != "(" || close > afterOpen {
                result.append(" ")
                index = text.index(after: close)
            } else {
                result.append(character)
                index = afterOpen
            }
        }
        return result
    }

    /// Replaces every run of whitespace by one space and trims both ends.
    static func collapsingWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// True for the Unicode general categories Whisper treats as symbols:
    /// marks (M*), symbols (S*) and punctuation (P*).
    static func isMarkSymbolOrPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark,
             .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol,
             .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default:
            return false
        }
    }
}
