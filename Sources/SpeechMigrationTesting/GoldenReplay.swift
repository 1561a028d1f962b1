import Foundation
import SpeechMigration

/// Replays a golden outcome (recorded with `speech record-golden` or
/// `GoldenRecorder`) against a fresh outcome.
///
/// A golden holds the transcript, the timed words and the event order. The
/// default bounds ask for the same words (WER 0), word times within 50 ms and
/// the same event order: the engine is deterministic for the same input and
/// settings, so a change means behaviour changed.
public enum GoldenReplay {
    /// The default bounds for golden replay.
    public static let defaultEquivalence = OutcomeEquivalence(maximumWordErrorRate: 0, timingToleranceSeconds: 0.05,
                                                              requiresSameEvents: true)

    /// Why `outcome` does not match the golden at `url`; empty when it does.
    /// - Throws: `MigrationError` (`.invalidSuite`) when the golden cannot be read.
    public static func failures(of outcome: RecognitionOutcome, againstGoldenAt url: URL,
                                within equivalence: OutcomeEquivalence = defaultEquivalence,
                                languageTag: String = "en") throws -> [String] {
        let golden = try RecognitionOutcome(contentsOf: url)
        return equivalence.failures(expected: golden, actual: outcome, languageTag: languageTag)
    }
}
