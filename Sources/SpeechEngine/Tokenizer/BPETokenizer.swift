import Foundation

/// Whisper's byte-level byte-pair-encoding tokenizer: text to token ids and
/// back, plus the special-token ids of one model.
///
/// Encoding splits text with GPT-2's pre-tokenizer (`PreTokenizer`), spells
/// each piece as UTF-8 bytes, starts from one token per byte and repeatedly
/// merges the adjacent pair with the lowest merge rank from `tokenizer.json`
/// until no listed pair is left. Decoding concatenates the tokens' bytes and
/// reads them as UTF-8. The vocabulary and merge table are loaded once and
/// never change, so a tokenizer is a plain `Sendable` value shared by every
/// request.
///
/// ref: openai/whisper whisper/tokenizer.py (tiktoken `Encoding.encode`/`decode`).
public struct BPETokenizer: Sendable {
    /// One merge of the table: its rank (lower merges first) and the token it makes.
    struct Merge: Sendable {
        var rank: Int32
        var merged: Int32
    }

    /// The special-token ids of this model's vocabulary.
    public let specialTokens: SpecialTokens
    /// The token for each single byte value.
    /// - Shape: 256 entries, indexed by byte value.
    let byteTokens: [Int32]
    /// The merge table, keyed by `pairKey(left, right)`.
    let merges: [UInt64: Merge]
    /// Every text token's bytes, back to back; token `t` spans
    /// `tokenByteOffsets[t]..<tokenByteOffsets[t + 1]`.
    let tokenByteStorage: [UInt8]
    /// Offsets into `tokenByteStorage`.
    /// - Shape: `specialTokens.endOfText + 1` entries.
    let tokenByteOffsets: [Int]

    /// The number of ids the model scores: text, special and timestamp
    /// tokens (51865 multilingual, 51864 English-only). Logit vectors have
    /// this length.
    public var vocabularySize: Int { specialTokens.vocabularySize }

    /// The number of text tokens (ids `0..<textTokenCount`), equal to
    /// `specialTokens.endOfText`.
    public var textTokenCount: Int { tokenByteOffsets.count - 1 }

    /// Encodes plain text into text-token ids. Special-token spellings such
    /// as `"<|endoftext|>"` in `text` are encoded as ordinary text.
    ///
    /// Leading spaces matter: `" Hello"` and `"Hello"` are different tokens;
    /// Whisper's decoder expects text after a space, as it predicts it.
    /// - Complexity: O(n log n) in the text's UTF-8 length.
    public func encode(_ text: String) -> [Int] {
        var tokens: [Int] = []
        tokens.reserveCapacity(text.utf8.count / 3 + 1)
        for piece in PreTokenizer.pieces(of: text) {
            var symbols = piece.utf8.map { byteTokens[Int($0)] }
            mergePairs(&symbols)
            tokens.append(contentsOf: symbols.lazy.map(Int.init))
        }
        return tokens
    }

    /// Decodes token ids into text. Special, language and timestamp tokens
    /// (ids at or above `specialTokens.endOfText`) and ids outside the
    /// vocabulary are skipped; byte sequences that are not valid UTF-8 (a
    /// character cut between tokens) decode as U+FFFD.
    public func decode(_ tokens: [Int]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(tokens.count * 4)
        for token in tokens where specialTokens.isText(token) {
            bytes.append(contentsOf: tokenByteStorage[tokenByteOffsets[token]..<tokenByteOffsets[token + 1]])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The raw UTF-8 bytes of one text token (possibly part of a character),
    /// or `[]` for special tokens and ids outside the vocabulary.
    public func bytes(of token: Int) -> [UInt8] {
        guard specialTokens.isText(token) else { return [] }
        return Array(tokenByteStorage[tokenByteOffsets[token]..<tokenByteOffsets[token + 1]])
    }

    /// A token's text for display: a text token's bytes as (lossy) UTF-8, a
    /// special token's `<|…|>` spelling, `""` for unknown ids.
    public func text(of token: Int) -> String {
        if let special = specialTokens.text(of: token) { return special }
        return String(decoding: bytes(of: token), as: UTF8.self)
    }

    /// Applies the merge table to one piece's tokens: repeatedly merges the
    /// adjacent pair with the lowest rank (leftmost first among equals) until
    /// no pair has a merge rule. Same result as GPT-2's "merge every
    /// occurrence of the best pair, then look again", in O(n log n) rather
    /// than O(n²), which matters for long unspaced (CJK) prompts.
    ///
    /// Symbols live in a doubly linked list over the original byte
    /// positions; merging keeps the left slot and unlinks the right one.
    private func mergePairs(_ symbols: inout [Int32]) {
        let count = symbols.count
        guard count > 1 else { return }
        var next = Array(1...count)       // `count` marks the end
        var previous = Array(-1..<(count - 1))
        var queue = MergeQueue(capacity: count)
        func enqueue(_ position: Int) {
            let right = next[position]
            guard right < count,
                  let merge = merges[Self.pairKey(symbols[position], symbols[right])] else { return }
            queue.push(MergeQueue.Candidate(rank: merge.rank, position: Int32(position),
                                            left: symbols[position], right: symbols[right], merged: merge.merged))
        }
        for position in 0..<(count - 1) {
            enqueue(position)
        }
        var removed = [Bool](repeating: false, count: count)
        while let candidate = queue.pop() {
            let position = Int(candidate.position)
            let right = next[position]
            // Skip candidates a neighbouring merge has made stale.
            guard !removed[position], right < count,
                  symbols[position] == candidate.left, symbols[right] == candidate.right else { continue }
            symbols[position] = candidate.merged
            removed[right] = true
            next[position] = next[right]
            if next[right] < count { previous[next[right]] = position }
            if previous[position] >= 0 { enqueue(previous[position]) }
            enqueue(position)
        }
        var merged: [Int32] = []
        var position = 0
        while position < count {
            merged.append(symbols[position])
            position = next[position]
        }
        symbols = merged
    }

    /// The merge-table key of an adjacent token pair.
    static func pairKey(_ left: Int32, _ right: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: left)) << 32 | UInt64(UInt32(bitPattern: right))
    }
}
