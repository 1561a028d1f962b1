import Foundation
import SpeechEvaluation

/// How one outcome differs from a baseline outcome on the same audio: word
/// error rate, word diff, and per-word timing and confidence differences
/// for the words both recognized.
///
/// Words are aligned after normalisation (`TranscriptScorer`, Whisper's
/// normalisers), so "ten" and "10" or a comma do not count as differences.
public struct OutcomeComparison: Sendable, Hashable, Codable {
    /// One word both outcomes recognized, with its timing and confidence in each.
    public struct WordDifference: Sendable, Hashable, Codable {
        /// The (normalised) word.
        public var word: String
        /// Start in the baseline, seconds.
        public var baselineStart: Double
        /// Start in the other outcome, seconds.
        public var otherStart: Double
        /// End in the baseline, seconds.
        public var baselineEnd: Double
        /// End in the other outcome, seconds.
        public var otherEnd: Double
        /// Confidence in the baseline, if reported.
        public var baselineConfidence: Double?
        /// Confidence in the other outcome, if reported.
        public var otherConfidence: Double?

        /// The larger of the start and end differences, seconds.
        public var difference: Double { max(abs(otherStart - baselineStart), abs(otherEnd - baselineEnd)) }
        /// Other minus baseline confidence, when both report one.
        public var confidenceDifference: Double? {
            guard let baselineConfidence, let otherConfidence else { return nil }
            return otherConfidence - baselineConfidence
        }
    }

    /// The baseline's path.
    public var baseline: RecognitionPath
    /// The compared path.
    public var other: RecognitionPath
    /// Word (or character) error rate of `other` against `baseline`.
    public var wordErrorRate: Double
    /// The alignment in `git diff --word-diff` notation.
    public var wordDiff: String
    /// Timing and confidence of matching words.
    public var words: [WordDifference]

    /// Compares `other` against `baseline`.
    public init(baseline: RecognitionOutcome, other: RecognitionOutcome, languageTag: String = "en") {
        let scorer = TranscriptScorer()
        let alignment = scorer.alignment(reference: baseline.transcript, hypothesis: other.transcript,
                                         languageTag: languageTag)
        self.baseline = baseline.path
        self.other = other.path
        let counts = alignment.counts
        wordErrorRate = counts.referenceCount == 0 ? (counts.insertions == 0 ? 0 : 1) : counts.rate
        wordDiff = alignment.wordDiff
        words = Self.matchedWords(baseline: baseline.words, other: other.words, scorer: scorer, languageTag: languageTag)
    }

    /// The matching word whose timing differs most, if any.
    public var largestTimingDifference: WordDifference? {
        words.max { $0.difference < $1.difference }
    }

    /// Mean absolute timing difference of matching words, seconds.
    public var meanTimingDifference: Double? {
        words.isEmpty ? nil : words.map(\.difference).reduce(0, +) / Double(words.count)
    }

    /// Pairs words of equal normalised text along an alignment of the two
    /// word lists (each timed word normalised on its own).
    private static func matchedWords(baseline: [TimedWord], other: [TimedWord], scorer: TranscriptScorer,
                                     languageTag: String) -> [WordDifference] {
        let normalizer = scorer.normalizer(for: languageTag)
        let left = baseline.map { normalizer.normalize($0.text) }
        let right = other.map { normalizer.normalize($0.text) }
        let alignment = Alignment(reference: left, hypothesis: right)
        var result: [WordDifference] = []
        var leftIndex = 0, rightIndex = 0
        for pair in alignment.pairs {
            switch pair.operation {
            case .match:
                let a = baseline[leftIndex], b = other[rightIndex]
                if !left[leftIndex].isEmpty {
                    result.append(WordDifference(word: left[leftIndex], baselineStart: a.startSeconds,
                                                 otherStart: b.startSeconds, baselineEnd: a.endSeconds,
                                                 otherEnd: b.endSeconds, baselineConfidence: a.confidence,
                                                 otherConfidence: b.confidence))
                }
                leftIndex += 1; rightIndex += 1
            case .substitution: leftIndex += 1; rightIndex += 1
            case .deletion: leftIndex += 1
            case .insertion: rightIndex += 1
            }
        }
        return result
    }
}
