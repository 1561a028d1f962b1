/// Expansion of English contractions, informal spellings and abbreviated
/// titles, applied word by word before punctuation is removed.
///
/// ref: whisper/normalizers/english.py `EnglishTextNormalizer.replacers`.
/// Whisper expands "'s" to "is" even where it marks a possessive
/// ("john's" → "john is"); that is kept, since reference and hypothesis are
/// normalised alike.
enum EnglishContractions {
    /// Whole words replaced as they are.
    static let wholeWords: [String: String] = [
        // common contractions
        "won't": "will not", "can't": "can not", "let's": "let us", "ain't": "aint",
        "y'all": "you all", "wanna": "want to", "gotta": "got to", "gonna": "going to",
        "i'ma": "i am going to", "imma": "i am going to", "woulda": "would have",
        "coulda": "could have", "shoulda": "should have", "ma'am": "madam",
        // titles and abbreviations
        "mr": "mister", "mrs": "missus", "st": "saint", "dr": "doctor", "prof": "professor",
        "capt": "captain", "gov": "governor", "ald": "alderman", "gen": "general",
        "sen": "senator", "rep": "representative", "pres": "president", "rev": "reverend",
        "hon": "honorable", "asst": "assistant", "assoc": "associate", "lt": "lieutenant",
        "col": "colonel", "jr": "junior", "sr": "senior", "esq": "esquire",
    ]

    /// Endings expanded into a separate word, tried in this order ("n't"
    /// before "'t").
    static let suffixes: [(ending: String, expansion: String)] = [
        ("n't", "not"), ("'re", "are"), ("'s", "is"), ("'d", "would"), ("'ll", "will"),
        ("'t", "not"), ("'ve", "have"), ("'m", "am"),
    ]

    /// Participles after which "'s" means "has" and "'d" means "had".
    static let perfectParticiples: Set<String> = ["been", "gotten"]

    /// Expands every contraction in `text`, leaving all other characters
    /// (spaces, punctuation) where they were.
    static func expanding(_ text: String) -> String {
        let tokens = tokenize(text)
        var result = ""
        for (index, token) in tokens.enumerated() {
            guard token.isWord else {
                result += token.text
                continue
            }
            var nextWord: String?
            if index + 2 < tokens.count, tokens[index + 1].text.allSatisfy(\.isWhitespace),
               tokens[index + 2].isWord {
                nextWord = tokens[index + 2].text
            }
            result += expandingWord(token.text, nextWord: nextWord)
        }
        return result
    }

    /// Expands one word; `nextWord` is the word after it when only spaces
    /// separate them.
    static func expandingWord(_ word: String, nextWord: String?) -> String {
        if let replacement = wholeWords[word] { return replacement }
        var stem = word
        var expansions: [String] = []
        if let nextWord, perfectParticiples.contains(nextWord) {
            if stem.hasSuffix("'s"), stem.count > 2 {
                stem.removeLast(2)
                expansions.append("has")
            } else if stem.hasSuffix("'d"), stem.count > 2 {
                stem.removeLast(2)
                expansions.append("had")
            }
        }
        var changed = true
        while changed {
            changed = false
            for (ending, expansion) in suffixes where stem.hasSuffix(ending) && stem.count > ending.count {
                stem.removeLast(ending.count)
                expansions.insert(expansion, at: 0)
                changed = true
                break
            }
        }
        return ([stem] + expansions).joined(separator: " ")
    }

    /// A run of word characters (letters, digits, "_" and apostrophes), or a
    /// run of anything else.
    struct Token {
        var text: String
        var isWord: Bool
    }

    static func tokenize(_ text: String) -> [Token] {
        var tokens: [Token] = []
        for character in text {
            let isWord = character.isLetter || character.isNumber || character == "_" || character == "'"
            if let last = tokens.last, last.isWord == isWord {
                tokens[tokens.count - 1].text.append(character)
            } else {
                tokens.append(Token(text: String(character), isWord: isWord))
            }
        }
        return tokens
    }
}
