import Foundation

/// Which words of a growing utterance are stable enough to commit while the
/// speaker goes on: the words two consecutive accurate passes agree on, from
/// the start of what is pending (LocalAgreement with two passes).
///
/// A word the model hears the same way twice, once with more audio after it,
/// rarely changes with still more audio; committing it lets the pipeline drop
/// its audio, so the work left at the end of input is the short tail nobody
/// agreed on yet, whatever the utterance's length. Words are compared
/// spoken-form (case and punctuation ignored, since a later pass often adds a
/// comma or a capital); the committed spelling is the later pass's.
///
/// All times are stream seconds.
struct PrefixAgreement: Sendable {
    /// The last pass's words that were not committed: what the next pass must agree with.
    private(set) var pending: [WordTiming] = []
    /// The last committed words (at most `overlapWordLimit`), for `removingOverlap`.
    private(set) var committedTail: [WordTiming] = []

    /// Longest run of words a pass may repeat from the committed text.
    static let overlapWordLimit = 5
    /// A repeat is only looked for in words that start this close to the last committed word's end.
    static let overlapWindowSeconds = 1.0

    /// Takes a pass's words (after `removingOverlap`) and returns those to
    /// commit now: the prefix this pass and the previous one agree on, up to
    /// the last word that ends before `stableBefore` (a word running into the
    /// end of the audio may be cut off). The rest waits for the next pass.
    mutating func agree(_ words: [WordTiming], stableBefore: Double) -> [WordTiming] {
        var count = 0
        while count < words.count, count < pending.count, Self.sameWord(words[count], pending[count]),
              words[count].endSeconds <= stableBefore {
            count += 1
        }
        let committed = Array(words.prefix(count))
        pending = Array(words.dropFirst(count))
        if !committed.isEmpty { noteCommitted(committed) }
        return committed
    }

    /// Records words committed another way (an endpoint, `commit(throughSample:)`),
    /// so the next pass's repeat of them is recognised.
    mutating func noteCommitted(_ words: [WordTiming]) {
        committedTail = Array((committedTail + words).suffix(Self.overlapWordLimit))
    }

    /// Forgets the previous pass: after a commit that decoded everything
    /// pending, or a jump in stream time, there is nothing to agree with.
    mutating func forgetPass() {
        pending = []
    }

    /// Forgets everything, the committed tail too (a long gap, a recording).
    mutating func reset() {
        pending = []
        committedTail = []
    }

    /// `words` without a leading repeat of the committed text: audio is cut
    /// at a word boundary the aligner placed within a few tens of ms, so a
    /// pass can hear the last committed word (or few) again at its start.
    /// Only words starting near the last committed word's end count, so a
    /// word the speaker really says twice, later, stays.
    func removingOverlap(_ words: [WordTiming]) -> [WordTiming] {
        guard let last = committedTail.last, let first = words.first,
              first.startSeconds < last.endSeconds + Self.overlapWindowSeconds else { return words }
        let limit = min(committedTail.count, words.count, Self.overlapWordLimit)
        guard limit > 0 else { return words }
        for length in stride(from: limit, through: 1, by: -1) {
            let tail = committedTail.suffix(length)
            let head = words.prefix(length)
            if zip(tail, head).allSatisfy({ Self.sameWord($0, $1) }) {
                return Array(words.dropFirst(length))
            }
        }
        return words
    }

    /// Whether two words read the same: lowercased letters, digits and
    /// apostrophes; words of punctuation alone compare as written.
    static func sameWord(_ a: WordTiming, _ b: WordTiming) -> Bool {
        let (x, y) = (spoken(a.word), spoken(b.word))
        if x.isEmpty && y.isEmpty { return a.word.trimmingCharacters(in: .whitespaces) == b.word.trimmingCharacters(in: .whitespaces) }
        return x == y
    }

    static func spoken(_ word: String) -> String {
        String(word.lowercased().unicodeScalars.filter {
            CharacterSet.alphanumerics.contains($0) || $0 == "'" || $0 == "\u{2019}"
        }.map(Character.init))
    }
}
