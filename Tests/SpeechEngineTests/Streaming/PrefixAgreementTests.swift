import Foundation
import Testing
@testable import SpeechEngine

/// Which words two consecutive passes agree on, and how a pass's repeat of
/// the committed words is recognised, on hand-written word lists.
@Suite("PrefixAgreement")
struct PrefixAgreementTests {
    /// Words one per 0.4 s from `start`, each 0.3 s long.
    private static func words(_ text: String, from start: Double = 0) -> [WordTiming] {
        text.split(separator: " ").enumerated().map { index, word in
            let begin = start + 0.4 * Double(index)
            return WordTiming(word: " " + word, startSeconds: begin, endSeconds: begin + 0.3, probability: 0.9)
        }
    }

    private static func text(_ words: [WordTiming]) -> String {
        words.map(\.word).joined().trimmingCharacters(in: .whitespaces)
    }

    @Test func theFirstPassCommitsNothing() {
        var agreement = PrefixAgreement()
        #expect(agreement.agree(Self.words("the cat sat"), stableBefore: 10).isEmpty)
        #expect(Self.text(agreement.pending) == "the cat sat")
    }

    @Test func twoPassesCommitTheWordsTheyAgreeOnAndKeepTheRestOpen() {
        var agreement = PrefixAgreement()
        _ = agreement.agree(Self.words("the cat sat on"), stableBefore: 10)
        let committed = agreement.agree(Self.words("the cat sat in the"), stableBefore: 10)
        #expect(Self.text(committed) == "the cat sat")
        #expect(Self.text(agreement.pending) == "in the")
        // The next pass is compared with what stayed open, not with the committed words.
        let next = agreement.agree(Self.words("in the hat", from: 1.2), stableBefore: 10)
        #expect(Self.text(next) == "in the")
        #expect(Self.text(agreement.pending) == "hat")
    }

    @Test func caseAndPunctuationDoNotBreakAgreementAndTheLaterSpellingIsCommitted() {
        var agreement = PrefixAgreement()
        _ = agreement.agree(Self.words("the cat sat"), stableBefore: 10)
        let committed = agreement.agree(Self.words("The cat, sat. Then"), stableBefore: 10)
        #expect(Self.text(committed) == "The cat, sat.")
    }

    @Test func aWordRunningIntoTheEndOfTheAudioIsNotCommitted() {
        var agreement = PrefixAgreement()
        _ = agreement.agree(Self.words("the cat sat"), stableBefore: 10)
        // "sat" ends at 1.1 s, past the stable limit: it and all after it stay open.
        let committed = agreement.agree(Self.words("the cat sat"), stableBefore: 1.0)
        #expect(Self.text(committed) == "the cat")
        #expect(Self.text(agreement.pending) == "sat")
    }

    @Test func disagreementAtTheStartCommitsNothing() {
        var agreement = PrefixAgreement()
        _ = agreement.agree(Self.words("a cat sat"), stableBefore: 10)
        #expect(agreement.agree(Self.words("the cat sat"), stableBefore: 10).isEmpty)
        // Forgetting the pass (after an endpoint commit) leaves nothing to agree with.
        agreement.forgetPass()
        #expect(agreement.agree(Self.words("the cat sat"), stableBefore: 10).isEmpty)
    }

    @Test func aRepeatOfTheLastCommittedWordsAtThePassStartIsDropped() {
        var agreement = PrefixAgreement()
        agreement.noteCommitted(Self.words("we went to the", from: 0))
        // The last committed word ends at 1.5 s; the pass heard "to the" again right after the cut.
        let pass = Self.words("to the market", from: 1.3)
        #expect(Self.text(agreement.removingOverlap(pass)) == "market")
        // Only the longest repeat that matches goes: "the" alone also matches its last word.
        #expect(Self.text(agreement.removingOverlap(Self.words("the market", from: 1.4))) == "market")
    }

    @Test func aWordSaidAgainLaterOrADifferentStartStays() {
        var agreement = PrefixAgreement()
        agreement.noteCommitted(Self.words("very", from: 0))
        // Said again two seconds later: the speaker repeated it.
        #expect(Self.text(agreement.removingOverlap(Self.words("very good", from: 2.5))) == "very good")
        #expect(Self.text(agreement.removingOverlap(Self.words("good very", from: 0.4))) == "good very")
        #expect(PrefixAgreement().removingOverlap(Self.words("very")).count == 1)
    }

    @Test func theCommittedTailKeepsOnlyTheLastFewWords() {
        var agreement = PrefixAgreement()
        agreement.noteCommitted(Self.words("one two three four five six seven"))
        #expect(agreement.committedTail.count == PrefixAgreement.overlapWordLimit)
        #expect(Self.text(agreement.committedTail) == "three four five six seven")
        agreement.reset()
        #expect(agreement.committedTail.isEmpty && agreement.pending.isEmpty)
    }
}
