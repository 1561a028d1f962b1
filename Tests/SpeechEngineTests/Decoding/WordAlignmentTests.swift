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

    /// The sliding window against sorting each window afresh, with ties
    /// (values from a small set), every width up to 9 and lengths around it.
    @Test func medianFilterMatchesSortingEachWindow() {
        var generator = SeededGenerator(seed: 7)
        for width in [1, 3, 5, 7, 9] {
            for count in [1, 2, width / 2, width / 2 + 1, width, 40, 1_500] where count > 0 {
                let values = (0..<count).map { _ in Float(Int.random(in: -3...3, using: &generator)) / 2 }
                let pad = width / 2
                let expected: [Float] = count <= pad ? values : (0..<count).map { i in
                    let window = (i - pad...i + pad).map { k -> Float in
                        let j = abs(k)
                        return values[j >= count ? 2 * (count - 1) - j : j]
                    }
                    return window.sorted()[pad]
                }
                #expect(WordAlignment.medianFilter(values, width: width) == expected, "width \(width), count \(count)")
            }
        }
    }

    @Test func standardizingColumnsGivesZeroMeanAndUnitDeviation() {
        // 4 tokens x 2 positions: position 0 holds 1, 3, 1, 3 (mean 2, deviation 1);
        // position 1 is constant, so its deviation is floored and it becomes 0.
        var values: [Float] = [1, 4, 3, 4, 1, 4, 3, 4]
        var mean = [Float](repeating: 0, count: 2), deviation = mean
        WordAlignment.standardizeColumns(&values, rows: 4, columns: 2, mean: &mean, deviation: &deviation)
        #expect(mean == [2, 4])
        #expect(deviation == [1, 1e-10])
        #expect(values == [-1, 0, 1, 0, -1, 0, 1, 0])
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

    private func word(_ text: String, _ start: Double, _ end: Double) -> WordTiming {
        WordTiming(word: text, startSeconds: start, endSeconds: end, probability: 1)
    }

    @Test func theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        #expect(WordAlignment.median([]) == 0)
        #expect(WordAlignment.median([0.3, 0.1, 0.2]) == 0.2)
        #expect(WordAlignment.median([0.4, 0.1, 0.2, 0.3]) == 0.25)
    }

    /// A closing mark stretched over the pause after it keeps `maxDuration`
    /// from its start; the next sentence's first word, stretched back over
    /// the pause, keeps it from its end; other long words are left alone.
    @Test func longWordsAtSentenceEndsAreCut() {
        func aligned(_ timing: WordTiming) -> WordAlignment.AlignedWord { .init(timing: timing, tokenCount: 1) }
        var words = [word(" Stop", 0, 0.3), word(".", 0.3, 1.5), word(" Then", 1.5, 1.8), word(" go", 1.8, 2.1),
                     word(".", 2.1, 2.3), word(" Longer", 2.3, 3.5), word(" still", 3.5, 4.4)].map(aligned)
        WordAlignment.truncateAtSentenceEnds(&words, maxDuration: 0.4)
        let times = words.map { [$0.timing.startSeconds, $0.timing.endSeconds] }
        #expect(times[1][0] == 0.3 && abs(times[1][1] - 0.7) < 1e-12, "the mark")
        #expect(times[2] == [1.5, 1.8], "after a mark that was long, a word within bounds stays")
        #expect(abs(times[5][0] - 3.1) < 1e-12 && times[5][1] == 3.5, "the first word of a sentence")
        #expect(times[6] == [3.5, 4.4], "a long word inside a sentence")
    }

    /// The alignment starts a window's first word at its first frame: after
    /// 1.5 s of silence "Hello" spans 0–1.8 s. After a pause it keeps twice
    /// the median duration from its end.
    @Test func aLongFirstWordAfterAPauseIsCut() {
        let words = [word(" Hello", 0, 1.8), word(" there", 1.8, 2.1)]
        let clamped = WordAlignment.clampingEdges(of: words, segmentStart: 0, segmentEnd: 2.2, lastSpeech: 0,
                                                  medianDuration: 0.3)
        #expect(abs(clamped[0].startSeconds - 1.2) < 1e-12)
        #expect(clamped[0].endSeconds == 1.8 && clamped[1] == words[1])
        // Speech just before (a word ending at 0.9 s): no pause, so the first-word cut does not apply.
        let noPause = WordAlignment.clampingEdges(of: words, segmentStart: 0, segmentEnd: 2.2, lastSpeech: 0.9,
                                                  medianDuration: 0.3)
        #expect(noPause == words)
    }

    /// When the second word is long too, the two share the boundary that
    /// leaves the second `maxDuration`, then the first keeps it before that.
    @Test func aLongSecondWordAfterAPauseMovesTheBoundary() {
        let words = [word(" So", 0, 1.0), word(" anyway", 1.0, 2.5), word(" yes", 2.5, 2.8)]
        let clamped = WordAlignment.clampingEdges(of: words, segmentStart: 0, segmentEnd: 2.8, lastSpeech: -5,
                                                  medianDuration: 0.3)
        #expect(abs(clamped[0].endSeconds - 1.9) < 1e-12 && abs(clamped[1].startSeconds - 1.9) < 1e-12)
        #expect(abs(clamped[0].startSeconds - 1.3) < 1e-12)
        #expect(clamped[1].endSeconds == 2.5 && clamped[2] == words[2])
    }

    /// Without a pause, the decoder's timestamps still bound the edges: a
    /// first word starting over 0.5 s before the opening timestamp starts
    /// there (keeping the median duration), and a last word ending over
    /// 0.5 s after the closing one ends there; within 0.5 s they stay.
    @Test func theSegmentsTimestampsBoundItsEdgeWords() {
        let words = [word(" A", 0, 1.0), word(" b", 1.0, 1.3), word(" c", 1.3, 3.0)]
        let clamped = WordAlignment.clampingEdges(of: words, segmentStart: 0.8, segmentEnd: 2.0, lastSpeech: 0.5,
                                                  medianDuration: 0.3)
        #expect(abs(clamped[0].startSeconds - 0.7) < 1e-12, "min(end - median, segment start)")
        #expect(clamped[2].endSeconds == 2.0)
        #expect(clamped[1] == words[1])
        let within = WordAlignment.clampingEdges(of: words, segmentStart: 0.4, segmentEnd: 2.6, lastSpeech: 0.5,
                                                 medianDuration: 0.3)
        #expect(within == words)
        #expect(WordAlignment.clampingEdges(of: [], segmentStart: 0, segmentEnd: 1, lastSpeech: 0, medianDuration: 0.3).isEmpty)
    }
}
