import Foundation
import SpeechEvaluation

/// Decides whether two outcomes are equivalent: the word error rate of one
/// against the other within a bound, and the start of every matching word
/// within a timing tolerance.
///
/// Used by suites (legacy against modern, outcome against golden), by the
/// guide's tests and by `SpeechMigrationTesting`.
public struct OutcomeEquivalence: Sendable, Hashable, Codable {
    /// The largest allowed word error rate of `actual` against `expected`.
    public var maximumWordErrorRate: Double
    /// The largest allowed difference in seconds between the starts (and the
    /// ends) of aligned matching words; nil skips timing checks.
    public var timingToleranceSeconds: Double?
    /// Whether the event orders and errors must be identical (same path,
    /// e.g. against a golden); across faces the vocabularies differ.
    public var requiresSameEvents: Bool

    /// Creates the bounds.
    public init(maximumWordErrorRate: Double = 0, timingToleranceSeconds: Double? = nil,
                requiresSameEvents: Bool = false) {
        self.maximumWordErrorRate = maximumWordErrorRate
        self.timingToleranceSeconds = timingToleranceSeconds
        self.requiresSameEvents = requiresSameEvents
    }

    /// Why `actual` is not equivalent to `expected`; empty when it is.
    public func failures(expected: RecognitionOutcome, actual: RecognitionOutcome,
                         languageTag: String = "en") -> [String] {
        let comparison = OutcomeComparison(baseline: expected, other: actual, languageTag: languageTag)
        var failures: [String] = []
        if comparison.wordErrorRate > maximumWordErrorRate + 1e-9 {
            failures.append(String(format: "WER %.3f of %@ against %@ exceeds %.3f: %@", comparison.wordErrorRate,
                                   actual.path.rawValue, expected.path.rawValue, maximumWordErrorRate,
                                   comparison.wordDiff))
        }
        if let tolerance = timingToleranceSeconds, let worst = comparison.largestTimingDifference,
           worst.difference > tolerance + 1e-9 {
            failures.append(String(format: "word \"%@\" starts at %.3f s in %@ and %.3f s in %@ (ends %.3f vs "
                                   + "%.3f): more than %.3f s apart", worst.word, worst.baselineStart,
                                   expected.path.rawValue, worst.otherStart, actual.path.rawValue,
                                   worst.baselineEnd, worst.otherEnd, tolerance))
        }
        if requiresSameEvents, expected.events != actual.events {
            failures.append("event order differs: expected \(expected.events.joined(separator: " → ")), got "
                            + actual.events.joined(separator: " → "))
        }
        if requiresSameEvents, expected.error != actual.error {
            failures.append("error differs: expected \(expected.error ?? "none"), got \(actual.error ?? "none")")
        }
        return failures
    }
}
