import Testing
import SpeechEngine
@testable import SpeechCLI

/// Per-word interim and confirmed latencies of a stream (OpenBench's two
/// streaming latencies), measured from the words' end times.
@Suite struct WordLatencyTests {
    static func final(_ words: [(String, Double)]) -> StreamingHypothesis {
        StreamingHypothesis(startSeconds: 0, endSeconds: words.last?.1 ?? 0,
                            text: words.map(\.0).joined().trimmingCharacters(in: .whitespaces),
                            words: words.map { WordTiming(word: $0.0, startSeconds: $0.1 - 0.3, endSeconds: $0.1, probability: 0.9) })
    }

    @Test func aWordIsShownByTheFirstResultThatHasItAndConfirmedByItsFinal() throws {
        let finals = [(hypothesis: Self.final([(" Hello,", 1.0), (" world.", 1.5)]), atSeconds: 3.0),
                      (hypothesis: Self.final([(" Again", 4.0)]), atSeconds: 5.0)]
        let volatiles = [
            WordLatency.Shown(atSeconds: 1.2, text: "hello", finalsBefore: 0),
            // "word" is not "world": that word is first shown by its final.
            WordLatency.Shown(atSeconds: 1.7, text: "Hello word", finalsBefore: 0),
            // After the first final, a volatile result covers only what follows it.
            WordLatency.Shown(atSeconds: 4.3, text: "again", finalsBefore: 1),
        ]
        let latency = try #require(WordLatency(finals: finals, volatiles: volatiles))
        #expect(latency.wordCount == 3)
        #expect(latency.wordsFirstShownByTheirFinal == 1)
        // Interim: hello 0.2, world 1.5 (its final), again 0.3.
        #expect(abs(latency.interim.median - 0.3) < 1e-9)
        #expect(abs(latency.interim.percentile90 - 1.5) < 1e-9)
        #expect(abs(latency.interim.mean - 2.0 / 3) < 1e-9)
        // Confirmed: 2.0, 1.5, 1.0.
        #expect(abs(latency.confirmed.median - 1.5) < 1e-9)
        #expect(abs(latency.confirmed.mean - 1.5) < 1e-9)
    }

    @Test func aStreamWithoutFinalWordsHasNoLatency() {
        #expect(WordLatency(finals: [], volatiles: [WordLatency.Shown(atSeconds: 1, text: "hi", finalsBefore: 0)]) == nil)
    }

    @Test func wordsCompareWithoutCaseOrPunctuation() {
        #expect(WordLatency.unit(" Don't,") == "don't")
        #expect(WordLatency.unit(" 'Tis") == "tis")
        #expect(WordLatency.unit("—") == "")
    }
}
