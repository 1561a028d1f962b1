import Foundation

/// Whisper's English normaliser, so that "Mr. Quilter's 25 colours" and
/// "MISTER QUILTER IS TWENTY FIVE COLORS" score as the same words.
///
/// ref: whisper/normalizers/english.py `EnglishTextNormalizer.__call__`.
/// The steps, in order:
/// 1. lower case; curly apostrophes become straight ones;
/// 2. annotations in brackets (`[laughter]`, `<unk>`, `(coughs)`) removed;
/// 3. contractions and titles expanded ("won't" → "will not", "mr" → "mister");
/// 4. commas between digits and periods not before a digit removed;
/// 5. diacritics removed ("café" → "cafe"), marks, symbols and punctuation
///    replaced by spaces, except the numeric symbols `. % $ ¢ € £`;
/// 6. hesitations (hmm, mm, mhm, mmm, uh, um) dropped;
/// 7. spelled-out numbers written in digits (``EnglishNumberNormalizer``);
/// 8. British spellings made American (``EnglishSpellingNormalizer``);
/// 9. numeric symbols not attached to a number removed, whitespace collapsed.
public struct EnglishTextNormalizer: TextNormalizing {
    /// Hesitation words Whisper's normaliser ignores.
    /// ref: whisper/normalizers/english.py `self.ignore_patterns`
    static let hesitations: Set<String> = ["hmm", "mm", "mhm", "mmm", "uh", "um"]

    /// Symbols kept through symbol removal because numbers use them.
    static let numericSymbols: Set<Unicode.Scalar> = [".", "%", "$", "¢", "€", "£"]

    /// Letters that Unicode decomposition does not split into a base letter
    /// and a mark. ref: whisper/normalizers/basic.py `ADDITIONAL_DIACRITICS`
    static let additionalDiacritics: [Unicode.Scalar: String] = [
        "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "ß": "ss", "ẞ": "SS",
        "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "th", "ł": "l", "Ł": "L",
    ]

    private let numbers = EnglishNumberNormalizer()
    private let spellings = EnglishSpellingNormalizer()

    /// Creates the normaliser.
    public init() {}

    /// Returns `text` in Whisper's canonical English form.
    public func normalize(_ text: String) -> String {
        var text = text.lowercased().replacingOccurrences(of: "\u{2019}", with: "'")
        text = NormalizationSteps.removingAnnotations(text)
        text = Self.joiningDetachedApostrophes(text)
        text = EnglishContractions.expanding(text)
        text = Self.removingDigitCommasAndSentencePeriods(text)
        text = Self.removingSymbolsAndDiacritics(text)
        var words = text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        words.removeAll { Self.hesitations.contains($0) }
        words = numbers.normalize(words)
        words = spellings.normalize(words)
        return Self.removingDetachedNumericSymbols(words.joined(separator: " "))
    }

    /// "i 'm" → "i'm". ref: english.py `re.sub(r"\s+'", "'", s)`
    static func joiningDetachedApostrophes(_ text: String) -> String {
        var result = ""
        var pendingSpace = ""
        for character in text {
            if character.isWhitespace {
                pendingSpace.append(character)
            } else {
                if character != "'" { result += pendingSpace }
                pendingSpace = ""
                result.append(character)
            }
        }
        return result + pendingSpace
    }

    /// "1,000" → "1000", and a period not followed by a digit becomes a space
    /// ("end." → "end ", "1.5" stays).
    /// ref: english.py `re.sub(r"(\d),(\d)", r"\1\2", s)` and
    /// `re.sub(r"\.([^0-9]|$)", r" \1", s)`
    static func removingDigitCommasAndSentencePeriods(_ text: String) -> String {
        let characters = Array(text)
        var result = ""
        result.reserveCapacity(characters.count)
        for (index, character) in characters.enumerated() {
            let previous = index > 0 ? characters[index - 1] : nil
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if character == ",", previous?.isASCIIDigit == true, next?.isASCIIDigit == true {
                continue
            }
            if character == ".", next?.isASCIIDigit != true {
                result.append(" ")
                continue
            }
            result.append(character)
        }
        return result
    }

    /// NFKD-decomposes `text`, drops combining marks (the diacritics), maps
    /// letters like "æ" and "ß", and replaces other marks, symbols and
    /// punctuation by spaces, keeping ``numericSymbols``.
    /// ref: whisper/normalizers/basic.py `remove_symbols_and_diacritics`
    static func removingSymbolsAndDiacritics(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCompatibilityMapping.unicodeScalars {
            if numericSymbols.contains(scalar) {
                result.append(scalar)
            } else if let replacement = additionalDiacritics[scalar] {
                result.append(contentsOf: replacement.unicodeScalars)
            } else if scalar.properties.generalCategory == .nonspacingMark {
                continue
            } else if NormalizationSteps.isMarkSymbolOrPunctuation(scalar) {
                result.append(" ")
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Removes `. $ ¢ € £` not followed by a digit and `%` not preceded by
    /// one, then collapses whitespace.
    /// ref: english.py `re.sub(r"[.$¢€£]([^0-9])", r" \1", s)` and
    /// `re.sub(r"([^0-9])%", r"\1 ", s)`
    static func removingDetachedNumericSymbols(_ text: String) -> String {
        let characters = Array(text)
        var result = ""
        for (index, character) in characters.enumerated() {
            let previous = index > 0 ? characters[index - 1] : nil
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if ".$¢€£".contains(character), next?.isASCIIDigit != true {
                result.append(" ")
            } else if character == "%", previous?.isASCIIDigit != true {
                result.append(" ")
            } else {
                result.append(character)
            }
        }
        return NormalizationSteps.collapsingWhitespace(result)
    }
}

extension Character {
    /// True for "0" through "9" only (not other scripts' digits).
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
