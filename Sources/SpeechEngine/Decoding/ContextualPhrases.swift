import Foundation

/// The contextual phrases of a request (Apple's `contextualStrings`), cut
/// down to what can help recognition without taking it over.
///
/// Phrases work two ways: a glossary in the decoder prompt (spelling and
/// vocabulary) and a logit bias toward their token sequences. Both must stay
/// small next to the audio, or the decoder writes the phrase list instead
/// of the speech and every step scans thousands of phrases. The rules:
///
/// 1. Blank phrases and repeats (compared case-insensitively, after
///    trimming) are dropped; the rest keep the caller's order.
/// 2. The first `TranscriptionOptions.maximumPhraseCount` (100, Apple's cap)
///    are used; later ones are ignored.
/// 3. The glossary takes whole phrases, in order, while it fits in
///    `glossaryTokenBudget` tokens: half of Whisper's prompt budget of
///    `n_text_ctx / 2 - 1` = 223 tokens, so the initial prompt and the
///    previous window's text keep room.
/// 4. Each phrase biases by at most its first `maximumBiasTokenCount`
///    tokens, and a token's boost is the largest any phrase gives it, never
///    the sum: a hundred phrases starting with the same word raise it once.
struct ContextualPhrases: Sendable {
    /// Prompt tokens the glossary may use: half of `n_text_ctx / 2 - 1` (223).
    /// ref: whisper/decoding.py `prompt_tokens[-(self.n_ctx // 2 - 1):]`
    static let glossaryTokenBudget = 111
    /// Tokens of one phrase the bias follows (names and terms are short).
    static let maximumBiasTokenCount = 16

    /// The phrases in use, after rules 1 and 2.
    let phrases: [String]
    /// The glossary text for the prompt (`"a, b, c."`), or `""` when no phrase fits.
    let glossary: String
    /// Token sequences to bias toward: each phrase with and without a leading space.
    let biasSequences: [[Int]]

    init(_ requested: [String], tokenizer: BPETokenizer) {
        var seen: Set<String> = []
        var kept: [String] = []
        for phrase in requested {
            guard kept.count < TranscriptionOptions.maximumPhraseCount else { break }
            let trimmed = phrase.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, seen.insert(trimmed.lowercased()).inserted else { continue }
            kept.append(trimmed)
        }
        phrases = kept
        var glossaryPhrases: [String] = []
        var glossaryTokens = 1 // the closing "."
        for phrase in kept {
            let cost = tokenizer.encode(" " + phrase + ",").count
            guard glossaryTokens + cost <= Self.glossaryTokenBudget else { break }
            glossaryTokens += cost
            glossaryPhrases.append(phrase)
        }
        glossary = glossaryPhrases.isEmpty ? "" : glossaryPhrases.joined(separator: ", ") + "."
        biasSequences = kept.flatMap { phrase in
            [tokenizer.encode(" " + phrase), tokenizer.encode(phrase)].map { Array($0.prefix(Self.maximumBiasTokenCount)) }
        }.filter { !$0.isEmpty }
    }
}

/// The bias filter's lookup tables: for each proper prefix of a phrase, the
/// tokens that continue it; and every phrase's first token.
/// - Complexity: per decoding step O(L²) for phrases of at most L tokens
///   (one hash lookup per suffix length) plus O(first tokens), independent
///   of how many phrases share those prefixes.
struct PhraseBiasTable: Sendable {
    /// Proper prefix → tokens that follow it in some phrase.
    let continuations: [[Int]: Set<Int>]
    /// The first token of every phrase.
    let firstTokens: Set<Int>
    /// The longest prefix worth looking up (longest phrase - 1).
    let longestPrefix: Int

    init(_ sequences: [[Int]]) {
        var continuations: [[Int]: Set<Int>] = [:]
        var firstTokens: Set<Int> = []
        var longest = 0
        for sequence in sequences where !sequence.isEmpty {
            firstTokens.insert(sequence[0])
            longest = max(longest, sequence.count - 1)
            for k in stride(from: 1, to: sequence.count, by: 1) {
                continuations[Array(sequence[0..<k]), default: []].insert(sequence[k])
            }
        }
        self.continuations = continuations
        self.firstTokens = firstTokens
        longestPrefix = longest
    }

    /// The boost for each token after `sampled`: `boost` for a token that
    /// continues a phrase the text ends with, `boost / 2` for a phrase's first
    /// token; the largest applies.
    func boosts(after sampled: ArraySlice<Int>, boost: Float) -> [Int: Float] {
        var result: [Int: Float] = [:]
        for token in firstTokens { result[token] = boost / 2 }
        let longest = min(longestPrefix, sampled.count)
        if longest >= 1 {
            for k in 1...longest {
                guard let next = continuations[Array(sampled.suffix(k))] else { continue }
                for token in next { result[token] = boost }
            }
        }
        return result
    }
}
