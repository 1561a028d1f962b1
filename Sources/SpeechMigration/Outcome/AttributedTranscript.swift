import CoreMedia
import Foundation
import Speech

/// Reads words, times and confidence out of a modern transcription
/// (`AttributedString` runs with `audioTimeRange` and
/// `transcriptionConfidence`), the way the legacy face lays out segments.
public enum AttributedTranscript {
    /// The timed words of `text`: one per run that carries an
    /// `audioTimeRange`, trimmed of spaces. Text in runs without a time
    /// range (punctuation) joins the word before it. With
    /// `keepingPunctuation: false` punctuation is removed, as the legacy
    /// face does when `addsPunctuation` is false.
    public static func words(in text: AttributedString, keepingPunctuation: Bool = true) -> [TimedWord] {
        var words: [TimedWord] = []
        for run in text.runs {
            let piece = String(text[run.range].characters)
            let cleaned = clean(piece, keepingPunctuation: keepingPunctuation)
            if let range = run.audioTimeRange {
                guard !cleaned.isEmpty else { continue }
                words.append(TimedWord(text: cleaned, startSeconds: range.start.seconds,
                                       durationSeconds: range.duration.seconds,
                                       confidence: run.transcriptionConfidence))
            } else if !cleaned.isEmpty {
                if let last = words.indices.last, !piece.hasPrefix(" ") {
                    words[last].text += cleaned
                } else {
                    for word in cleaned.split(separator: " ") {
                        words.append(TimedWord(text: String(word), startSeconds: 0, durationSeconds: 0, confidence: nil))
                    }
                }
            }
        }
        return words
    }

    /// The plain text of `text`, with punctuation removed unless kept, and
    /// spaces collapsed.
    public static func plainText(of text: AttributedString, keepingPunctuation: Bool = true) -> String {
        clean(String(text.characters), keepingPunctuation: keepingPunctuation)
    }

    /// Removes punctuation (but not apostrophes inside words) unless kept;
    /// trims and collapses whitespace.
    static func clean(_ text: String, keepingPunctuation: Bool) -> String {
        var kept = text
        if !keepingPunctuation {
            let characters = Array(text)
            kept = String(characters.enumerated().map { index, character -> Character in
                guard character.isPunctuation else { return character }
                let inWord = (character == "'" || character == "’") && index > 0 && index + 1 < characters.count
                    && characters[index - 1].isLetter && characters[index + 1].isLetter
                return inWord ? character : " "
            })
        }
        return kept.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
