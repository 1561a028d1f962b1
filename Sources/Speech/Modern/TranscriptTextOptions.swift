import Foundation

/// The text options of the transcribers that are plain text rewrites:
/// spoken emoji names (`DictationTranscriber.TranscriptionOption.emoji`) and
/// expletive masking (`etiquetteReplacements`).
///
/// Both work on whole words, case-insensitively, and keep the surrounding
/// spacing and punctuation.
enum TranscriptTextOptions {
    /// Spoken emoji names, longest first so that "smiling face emoji" wins
    /// over "face emoji".
    static let emojiNames: [(spoken: String, emoji: String)] = [
        ("smiling face emoji", "😊"), ("smiley face emoji", "🙂"), ("smiley emoji", "🙂"),
        ("smiling emoji", "🙂"), ("smile emoji", "🙂"), ("frowning emoji", "🙁"), ("sad face emoji", "🙁"),
        ("sad emoji", "🙁"), ("winking emoji", "😉"), ("wink emoji", "😉"), ("laughing emoji", "😂"),
        ("crying emoji", "😢"), ("heart emoji", "❤️"), ("thumbs up emoji", "👍"), ("thumbs down emoji", "👎"),
        ("fire emoji", "🔥"), ("party emoji", "🎉"), ("clapping emoji", "👏"), ("thinking emoji", "🤔"),
        ("rocket emoji", "🚀"), ("star emoji", "⭐"), ("check mark emoji", "✅"), ("sun emoji", "☀️"),
    ].sorted { $0.spoken.count > $1.spoken.count }

    /// Words masked by `etiquetteReplacements` (all but the first letter
    /// become asterisks).
    static let expletives: Set<String> = [
        "fuck", "fucking", "fucked", "fucker", "shit", "shitty", "bullshit", "bitch", "bastard",
        "asshole", "dick", "cunt", "piss", "pissed", "damn", "goddamn", "crap", "motherfucker", "wanker",
    ]

    /// `text` with spoken emoji names replaced by emoji.
    static func replacingEmojiNames(in text: String) -> String {
        var result = text
        for (spoken, emoji) in emojiNames {
            var searchStart = result.startIndex
            while let found = result.range(of: spoken, options: [.caseInsensitive], range: searchStart..<result.endIndex) {
                guard isWordBoundary(before: found.lowerBound, in: result),
                      isWordBoundary(after: found.upperBound, in: result) else {
                    searchStart = found.upperBound
                    continue
                }
                result.replaceSubrange(found, with: emoji)
                searchStart = result.index(found.lowerBound, offsetBy: emoji.count, limitedBy: result.endIndex)
                    ?? result.endIndex
            }
        }
        return result
    }

    /// `text` with each expletive masked: "shit" → "s***".
    static func maskingExpletives(in text: String) -> String {
        var result = ""
        var word = ""
        func flush() {
            if expletives.contains(word.lowercased()), let first = word.first {
                result += String(first) + String(repeating: "*", count: word.count - 1)
            } else {
                result += word
            }
            word = ""
        }
        for character in text {
            if character.isLetter || character == "'" {
                word.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }

    private static func isWordBoundary(before index: String.Index, in text: String) -> Bool {
        index == text.startIndex || !text[text.index(before: index)].isLetter
    }

    private static func isWordBoundary(after index: String.Index, in text: String) -> Bool {
        index == text.endIndex || !text[index].isLetter
    }
}
