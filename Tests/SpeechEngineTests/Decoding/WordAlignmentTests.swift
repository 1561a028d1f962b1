import Testing
@testable import SpeechEngine

/// DTW and the median filter against Scripts/reference/decoding_reference.py's
/// port of whisper/timing.py (`dtw_cpu`, `backtrace`, `median_filter`).
@Suite struct WordAlignmentTests {
    @Test("DTW path matches the reference", arguments: try DecodingReferenceData.shared().dtw)
    func dynamicTimeWarpingMatchesReference(_ reference: DecodingReferenceData.DTWCase) {
        let path = WordAlignment.dynamicTimeWarping(cost: reference.cost, rows: reference.rows,
                                                    columns: reference.columns)
        #expect(path.map { [$0.row, $0.column] } == reference.path)
    }

    @Test func dynamicTimeWarpingFollowsTheCheapDiagonal() {
        // Cheap cells on the diagonal of a 3 x 3 matrix: the path is the diagonal.
        let cost: [Float] = [-1, 1, 1, 1, -1, 1, 1, 1, -1]
        let path = WordAlignment.dynamicTimeWarping(cost: cost, rows: 3, columns: 3)
        #expect(path.map { [$0.row, $0.column] } == [[0, 0], [1, 1], [2, 2]])
        #expect(WordAlignment.dynamicTimeWarping(cost: [], rows: 0, columns: 4).isEmpty)
    }

    @Test("median filter (width 7, reflect padding) matches the reference",
          arguments: try DecodingReferenceData.shared().medianFilter)
    func medianFilterMatchesReference(_ reference: DecodingReferenceData.MedianCase) {
        let filtered = WordAlignment.medianFilter(reference.values, width: reference.width)
        #expect(filtered == reference.filtered)
    }

    @Test func medianFilterWidthIsWhispersDefault() {
        #expect(WordAlignment.medianFilterWidth == 7)
        #expect(WordAlignment.positionsPerSecond == 50)
    }

    @Test("punctuation merges into the neighbouring word as the reference merges it",
          arguments: try DecodingReferenceData.shared().punctuation)
    func mergingPunctuationMatchesReference(_ reference: DecodingReferenceData.PunctuationCase) {
        let words = reference.words.map {
            WordAlignment.AlignedWord(timing: WordTiming(word: $0.word, startSeconds: 0, endSeconds: 0, probability: 1),
                                      tokenCount: $0.tokenCount)
        }
        let merged = WordAlignment.mergingPunctuation(words)
        let check = {
            #expect(merged.map(\.timing.word) == reference.merged.map(\.word))
            #expect(merged.map(\.tokenCount) == reference.merged.map(\.tokenCount))
        }
        if reference.substringSemantics {
            // Known deviation: whisper tests `word in "<punctuation>"` as a
            // substring; the engine tests single marks. Reported, not fixed here.
            withKnownIssue("the engine matches single punctuation marks, whisper any substring of its list", check)
        } else {
            check()
        }
    }
}
