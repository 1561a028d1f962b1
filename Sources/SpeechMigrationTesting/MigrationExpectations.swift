import Foundation
import SpeechMigration
import Testing

/// Swift Testing expectations for migration work: two recognition outcomes
/// are equivalent within a WER bound and a timing tolerance, or an outcome
/// matches a recorded golden.
///
/// ```swift
/// @Test func portedCodeMatches() async throws {
///     let legacy = try await PathRunner(locale: en).run(.legacy, on: clip)
///     let modern = try await PathRunner(locale: en).run(.modern, on: clip)
///     MigrationExpectations.expectEquivalent(modern, to: legacy, maximumWordErrorRate: 0.1)
/// }
/// ```
/// Each failure is recorded as an issue with the WER, the word diff or the
/// word whose timing is off.
public enum MigrationExpectations {
    /// Records an issue for each way `actual` differs from `expected` beyond
    /// the bounds, and for bounds out of range (a WER bound outside 0...1).
    public static func expectEquivalent(_ actual: RecognitionOutcome, to expected: RecognitionOutcome,
                                        maximumWordErrorRate: Double = 0, timingToleranceSeconds: Double? = nil,
                                        requiresSameEvents: Bool = false, languageTag: String = "en",
                                        sourceLocation: SourceLocation = #_sourceLocation) {
        let equivalence = OutcomeEquivalence(maximumWordErrorRate: maximumWordErrorRate,
                                             timingToleranceSeconds: timingToleranceSeconds,
                                             requiresSameEvents: requiresSameEvents)
        for failure in GoldenReplay.boundProblems(of: equivalence)
            + equivalence.failures(expected: expected, actual: actual, languageTag: languageTag) {
            Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
        }
    }

    /// Records an issue for each way `outcome` differs from the golden at
    /// `url`, or when the golden cannot be read.
    public static func expectMatchesGolden(_ outcome: RecognitionOutcome, at url: URL,
                                           within equivalence: OutcomeEquivalence = GoldenReplay.defaultEquivalence,
                                           languageTag: String = "en",
                                           sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            for failure in try GoldenReplay.failures(of: outcome, againstGoldenAt: url, within: equivalence,
                                                     languageTag: languageTag) {
                Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record(error, Comment(rawValue: "golden \(url.path)"), sourceLocation: sourceLocation)
        }
    }
}
