import Foundation

extension BPETokenizer {
    /// Languages written without spaces between words, whose words for word
    /// timing are single characters.
    static let languagesWithoutSpaces: Set<String> = ["zh", "ja", "th", "lo", "my", "yue"]

    /// ASCII punctuation (Python's `string.punctuation`).
    private static let asciiPunctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

    /// Groups tokens into words for word timestamps, as Whisper does.
    ///
    /// Tokens are first grouped into the shortest runs that decode to whole
    /// characters (a CJK character often spans two or three tokens). For
    /// languages written without spaces (zh, ja, th, lo, my, yue) those runs
    /// are the words. Otherwise a run starts a new word when it begins with a
    /// space, is punctuation, or is a special/timestamp token; other runs
    /// join the word before them, so `" fell", "ow"` become `" fellow"`.
    /// Special tokens (e.g. a closing `<|endoftext|>`) are words of their
    /// own, spelled `<|…|>`.
    ///
    /// Joining the words gives the decoded text back (plus special spellings);
    /// joining the token lists gives `tokens` back, except for trailing tokens
    /// that end inside a character, which are dropped.
    ///
    /// ref: openai/whisper whisper/tokenizer.py `split_to_word_tokens`,
    /// `split_tokens_on_unicode`, `split_tokens_on_spaces`.
    public func splitToWords(_ tokens: [Int], language: String) -> [(word: String, tokens: [Int])] {
        let pieces = splitOnCharacters(tokens)
        if Self.languagesWithoutSpaces.contains(language) { return pieces }

        var words: [(word: String, tokens: [Int])] = []
        for piece in pieces {
            let isSpecial = piece.tokens[0] >= specialTokens.endOfText
            let startsWithSpace = piece.word.hasPrefix(" ")
            let stripped = piece.word.trimmingCharacters(in: .whitespacesAndNewlines)
            // Python's `stripped in string.punctuation` is a substring test.
            let isPunctuation = stripped.isEmpty || Self.asciiPunctuation.contains(stripped)
            if isSpecial || startsWithSpace || isPunctuation || words.isEmpty {
                words.append(piece)
            } else {
                words[words.count - 1].word += piece.word
                words[words.count - 1].tokens += piece.tokens
            }
        }
        return words
    }

    /// Splits tokens into the shortest runs that decode to whole characters.
    ///
    /// A run ends once its decoding holds no U+FFFD, or only U+FFFDs that the
    /// whole sequence's decoding also has at that place (bytes that are
    /// invalid UTF-8 in any grouping).
    func splitOnCharacters(_ tokens: [Int]) -> [(word: String, tokens: [Int])] {
        let replacement: Unicode.Scalar = "\u{FFFD}"
        let whole = Array(textIncludingSpecials(tokens).unicodeScalars)
        var pieces: [(word: String, tokens: [Int])] = []
        var current: [Int] = []
        var offset = 0
        for token in tokens {
            current.append(token)
            let decoded = textIncludingSpecials(current)
            let scalars = Array(decoded.unicodeScalars)
            if let firstBad = scalars.firstIndex(of: replacement) {
                let position = offset + firstBad
                guard position < whole.count, whole[position] == replacement else { continue }
            }
            pieces.append((decoded, current))
            current = []
            offset += scalars.count
        }
        return pieces
    }

    /// Decodes tokens keeping special and timestamp tokens as their `<|…|>`
    /// spellings (Whisper's `decode_with_timestamps`).
    func textIncludingSpecials(_ tokens: [Int]) -> String {
        var bytes: [UInt8] = []
        for token in tokens {
            if specialTokens.isText(token) {
                bytes.append(contentsOf: tokenByteStorage[tokenByteOffsets[token]..<tokenByteOffsets[token + 1]])
            } else if let special = specialTokens.text(of: token) {
                bytes.append(contentsOf: special.utf8)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
