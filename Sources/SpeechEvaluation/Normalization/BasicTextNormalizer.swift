import Foundation

/// Whisper's normaliser for languages other than English: lower case, no
/// annotations in brackets, every mark, symbol and punctuation character
/// replaced by a space, whitespace collapsed.
///
/// ref: whisper/normalizers/basic.py `BasicTextNormalizer` (with
/// `remove_diacritics=False`, `split_letters=False`). Letters keep their
/// diacritics ("å", "ñ" stay), because they distinguish words in those
/// languages.
public struct BasicTextNormalizer: TextNormalizing {
    /// Creates the normaliser.
    public init() {}

    /// Returns `text` lower-cased, without annotations, symbols or
    /// punctuation, words separated by single spaces.
    public func normalize(_ text: String) -> String {
        var text = text.lowercased()
        text = NormalizationSteps.removingAnnotations(text)
        text = Self.replacingSymbols(in: text)
        return NormalizationSteps.collapsingWhitespace(text)
    }

    /// NFKC-normalises `text`, then replaces marks, symbols and punctuation
    /// by spaces.
    static func replacingSymbols(in text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.precomposedStringWithCompatibilityMapping.unicodeScalars {
            scalars.append(NormalizationSteps.isMarkSymbolOrPunctuation(scalar) ? " " : scalar)
        }
        return String(scalars)
    }
}
