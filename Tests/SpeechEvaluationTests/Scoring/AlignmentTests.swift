import Testing
@testable import SpeechEvaluation

@Suite struct AlignmentTests {
    func words(_ text: String) -> [String] { text.split(separator: " ").map(String.init) }

    @Test func identicalSequencesAreAllMatches() {
        let alignment = Alignment(reference: words("a b c"), hypothesis: words("a b c"))
        #expect(alignment.pairs.map(\.operation) == [.match, .match, .match])
        #expect(alignment.counts == ErrorCounts(referenceCount: 3))
        #expect(alignment.counts.rate == 0)
    }

    @Test func countsSubstitutionDeletionInsertion() {
        let alignment = Alignment(reference: words("the cat sat on the mat"),
                                  hypothesis: words("cat sit on the mat today"))
        let counts = alignment.counts
        #expect(counts.substitutions == 1)
        #expect(counts.deletions == 1)
        #expect(counts.insertions == 1)
        #expect(counts.referenceCount == 6)
        #expect(abs(counts.rate - 0.5) < 1e-12)
    }

    @Test func emptyHypothesisIsAllDeletions() {
        let alignment = Alignment(reference: words("one two"), hypothesis: [])
        #expect(alignment.pairs.map(\.operation) == [.deletion, .deletion])
        #expect(alignment.counts.rate == 1)
    }

    @Test func emptyReferenceIsAllInsertions() {
        let alignment = Alignment(reference: [], hypothesis: words("hello there"))
        #expect(alignment.pairs.map(\.operation) == [.insertion, .insertion])
        #expect(alignment.counts.referenceCount == 0)
        #expect(alignment.counts.rate == 1)
        #expect(Alignment<String>(reference: [], hypothesis: []).counts.rate == 0)
    }

    @Test func insertionsCanExceedOneHundredPercent() {
        let counts = Alignment(reference: words("a"), hypothesis: words("b c d")).counts
        #expect(counts.errorCount == 3)
        #expect(counts.rate == 3)
    }

    @Test func distanceIsMinimal() {
        // Levenshtein("kitten", "sitting") = 3.
        let alignment = Alignment(reference: Array("kitten"), hypothesis: Array("sitting"))
        #expect(alignment.counts.errorCount == 3)
    }

    @Test func pairsCoverBothSequencesInOrder() {
        let reference = words("a b c d e"), hypothesis = words("x b d e f g")
        let alignment = Alignment(reference: reference, hypothesis: hypothesis)
        #expect(alignment.pairs.compactMap(\.reference) == reference)
        #expect(alignment.pairs.compactMap(\.hypothesis) == hypothesis)
    }

    @Test func wordDiffMarksEachEdit() {
        let alignment = Alignment(reference: words("ask not what your country"),
                                  hypothesis: words("ask what our country can"))
        #expect(alignment.wordDiff == "ask [-not-] what [-your-]{+our+} country {+can+}")
    }

    @Test func countsAddUp() {
        let a = ErrorCounts(substitutions: 1, deletions: 2, insertions: 0, referenceCount: 10)
        var b = ErrorCounts(substitutions: 0, deletions: 0, insertions: 3, referenceCount: 5)
        b += a
        #expect(b == ErrorCounts(substitutions: 1, deletions: 2, insertions: 3, referenceCount: 15))
        #expect(b.rate == 6.0 / 15.0)
    }
}
