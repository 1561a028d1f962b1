import Foundation

/// Turns the engine's streaming hypotheses into the faces' result types.
///
/// This file holds what both faces share: laying words out into one display
/// string with UTF-16 ranges, and words for text that came without timings.
/// The legacy mapping is in `ResultMapping+Legacy.swift`, the modern one in
/// `ResultMapping+Modern.swift`.
enum ResultMapping {
    /// A word placed in a display string.
    struct PlacedWord: Sendable, Hashable {
        /// The word without surrounding whitespace.
        var substring: String
        /// Where `substring` sits in the display string, in UTF-16 units.
        var range: NSRange
        /// The recognised word (stream times, confidence).
        var timing: RecognizedWord
    }

    /// The display string of `words` and where each word sits in it.
    ///
    /// Words are concatenated as the model wrote them (each carries its own
    /// leading space, or none in languages written without spaces), and the
    /// leading whitespace of the whole string is dropped. Words that are only
    /// whitespace are skipped. Ranges are ascending, disjoint and in bounds.
    static func layout(_ words: [RecognizedWord]) -> (text: String, words: [PlacedWord]) {
        var text = ""
        var utf16Count = 0
        var placed: [PlacedWord] = []
        placed.reserveCapacity(words.count)
        for word in words {
            let trimmed = word.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            let leading = word.text.prefix { $0.isWhitespace }
            // Keep one separator between words; none before the first word.
            let separator = text.isEmpty ? "" : (!leading.isEmpty || needsSpace(between: text.last, and: trimmed.first) ? " " : "")
            text += separator
            utf16Count += separator.utf16.count
            let length = trimmed.utf16.count
            placed.append(PlacedWord(substring: trimmed, range: NSRange(location: utf16Count, length: length),
                                     timing: word))
            text += trimmed
            utf16Count += length
        }
        return (text, placed)
    }

    /// Whether two words written without a space between them still need one:
    /// both sides are letters or digits of a script that separates words.
    private static func needsSpace(between previous: Character?, and next: Character?) -> Bool {
        guard let previous, let next, previous.isLetter || previous.isNumber, next.isLetter || next.isNumber else {
            return false
        }
        return !writtenWithoutSpaces(previous) && !writtenWithoutSpaces(next)
    }

    private static func writtenWithoutSpaces(_ character: Character) -> Bool {
        guard let value = character.unicodeScalars.first?.value else { return false }
        // Thai, Lao, Myanmar, Khmer, CJK, kana.
        return (0x0E00...0x0EFF).contains(value) || (0x1000...0x109F).contains(value)
            || (0x1780...0x17FF).contains(value) || (0x2E80...0x9FFF).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0x20000...0x3FFFF).contains(value)
    }

    /// The words of a hypothesis: the engine's timed words, or — when it
    /// gave text without them — the text's whitespace-separated words spread
    /// over the hypothesis's time range in proportion to their length, with
    /// probability 0.
    static func words(of hypothesis: RecognizedSpan) -> [RecognizedWord] {
        let hasTimedWords = hypothesis.words.contains { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
        if hasTimedWords { return hypothesis.words }
        return spreadWords(hypothesis.text, from: hypothesis.startSeconds, to: hypothesis.endSeconds, probability: 0)
    }

    /// Words of `text` spread evenly (by character count) over `[start, end]`.
    static func spreadWords(_ text: String, from start: Double, to end: Double, probability: Double) -> [RecognizedWord] {
        let tokens = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let totalCharacters = max(1, tokens.reduce(0) { $0 + $1.count })
        let span = max(0, end - start)
        var cursor = start
        return tokens.enumerated().map { index, token in
            let duration = span * Double(token.count) / Double(totalCharacters)
            defer { cursor += duration }
            return RecognizedWord(text: index == 0 ? token : " " + token, startSeconds: cursor,
                              endSeconds: cursor + duration, confidence: probability)
        }
    }
}
