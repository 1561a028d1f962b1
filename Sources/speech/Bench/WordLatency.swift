import Foundation
import SpeechEngine
import SpeechEvaluation

/// Latencies of a live stream per word, as OpenBench measures streaming
/// ("streaming latency" for interim results, "confirmed streaming latency"
/// for final ones): the time from the moment a word's audio was sent to the
/// moment a result shows it. OpenBench takes word times from the dataset;
/// here they come from the final results' own alignment (the accurate
/// model's word times over the committed audio), so no reference is needed
/// and every word the stream confirmed is measured.
///
/// A word is *shown* by the first result whose text has it where the final
/// put it: a volatile result, aligned word by word against the final words
/// after those already committed, or its own final. It is *confirmed* by its
/// final. Both are measured from the word's end; in realtime mode audio time
/// t was sent at wall time t, so a latency is what a live user waits.
struct WordLatency: Sendable, Hashable, Encodable {
    /// Words of the final results.
    var wordCount: Int
    /// From the end of a word to the first result showing it.
    var interim: Summary
    /// From the end of a word to the final result holding it.
    var confirmed: Summary
    /// Words no volatile result showed before their final did.
    var wordsFirstShownByTheirFinal: Int

    struct Summary: Sendable, Hashable, Encodable {
        var median: Double
        var percentile90: Double
        var mean: Double

        init(_ values: [Double]) {
            let sorted = values.sorted()
            median = TimingSummary(runs: sorted).median
            // Nearest rank: the smallest value with 90% of the values at or below it.
            percentile90 = sorted.isEmpty ? 0 : sorted[max(0, Int((0.9 * Double(sorted.count)).rounded(.up)) - 1)]
            mean = TimingSummary(runs: sorted).mean
        }
    }

    /// A volatile result as the stream showed it.
    struct Shown: Sendable {
        /// Seconds after the stream started.
        var atSeconds: Double
        var text: String
        /// How many final results came before it.
        var finalsBefore: Int
    }

    /// The latencies of `finals` (each with the second it arrived) and the
    /// volatile results shown between them; nil without final words.
    init?(finals: [(hypothesis: StreamingHypothesis, atSeconds: Double)], volatiles: [Shown]) {
        let words = finals.enumerated().flatMap { index, final in
            final.hypothesis.words.map { (word: Self.unit($0.word), endSeconds: $0.endSeconds, final: index) }
        }.filter { !$0.word.isEmpty }
        guard !words.isEmpty else { return nil }
        // First word of each final, so a volatile result is aligned after what was committed before it.
        var firstWord: [Int] = []
        var count = 0
        for final in finals {
            firstWord.append(count)
            count += final.hypothesis.words.filter { !Self.unit($0.word).isEmpty }.count
        }
        firstWord.append(count)
        var shown = words.map { finals[$0.final].atSeconds }
        for volatile in volatiles {
            let units = volatile.text.split(whereSeparator: \.isWhitespace).map { Self.unit(String($0)) }
                .filter { !$0.isEmpty }
            let start = firstWord[min(volatile.finalsBefore, finals.count)]
            // Room for the volatile text's words, plus a few it may have missed.
            let end = min(words.count, start + units.count + 8)
            guard start < end, !units.isEmpty else { continue }
            let alignment = Alignment(reference: words[start..<end].map(\.word), hypothesis: units)
            var index = start
            for pair in alignment.pairs {
                guard pair.reference != nil else { continue }
                if pair.operation == .match { shown[index] = min(shown[index], volatile.atSeconds) }
                index += 1
            }
        }
        wordCount = words.count
        interim = Summary(zip(shown, words).map { $0 - $1.endSeconds })
        confirmed = Summary(words.map { finals[$0.final].atSeconds - $0.endSeconds })
        wordsFirstShownByTheirFinal = zip(shown, words).filter { $0 >= finals[$1.final].atSeconds }.count
    }

    /// A word as compared: lowercase letters, digits and inner apostrophes.
    static func unit(_ word: String) -> String {
        String(word.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0)
            || $0 == "'" }.map(Character.init)).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
    }
}
