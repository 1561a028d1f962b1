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
    /// Bounds out of range (see ``boundProblems(of:)``) are failures too.
    /// - Throws: `MigrationError` (`.invalidGolden`) naming the file, line and
    ///   key when the golden is missing or malformed.
    public static func failures(of outcome: RecognitionOutcome, againstGoldenAt url: URL,
                                within equivalence: OutcomeEquivalence = defaultEquivalence,
                                languageTag: String = "en") throws -> [String] {
        let golden = try GoldenFile.read(url, path: nil)
        return boundProblems(of: equivalence)
            + equivalence.failures(expected: golden, actual: outcome, languageTag: languageTag)
    }

    /// Why `equivalence`'s bounds are unusable: a WER bound must be a finite
    /// number from 0 to 1 (a bound such as 1e308 would let any transcript
    /// pass) and a timing tolerance a finite number of seconds from 0 to 10.
    public static func boundProblems(of equivalence: OutcomeEquivalence) -> [String] {
        var problems: [String] = []
        let rate = equivalence.maximumWordErrorRate
        if !(rate.isFinite && MigrationSuite.wordErrorRateBoundRange.contains(rate)) {
            problems.append("maximumWordErrorRate \(rate) is out of range: give a finite number from 0 to 1.")
        }
        if let tolerance = equivalence.timingToleranceSeconds,
           !(tolerance.isFinite && MigrationSuite.timingToleranceRange.contains(tolerance)) {
            problems.append("timingToleranceSeconds \(tolerance) is out of range: give a finite number of seconds "
                            + "from 0 to 10.")
        }
        return problems
    }
}
