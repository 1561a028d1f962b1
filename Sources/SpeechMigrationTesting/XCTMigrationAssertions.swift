import Foundation
import SpeechMigration
import XCTest

/// Asserts that `actual` is equivalent to `expected`: its word error rate
/// against `expected` at most `maximumWordErrorRate`, matching words within
/// `timingToleranceSeconds` (when given), the same event order (when
/// required) and the same error. Each difference is one failure, and so is a
/// bound out of range (a WER bound outside 0...1).
public func XCTAssertOutcomesEquivalent(_ actual: RecognitionOutcome, _ expected: RecognitionOutcome,
                                        maximumWordErrorRate: Double = 0, timingToleranceSeconds: Double? = nil,
                                        requiresSameEvents: Bool = false, languageTag: String = "en",
                                        file: StaticString = #filePath, line: UInt = #line) {
    let equivalence = OutcomeEquivalence(maximumWordErrorRate: maximumWordErrorRate,
                                         timingToleranceSeconds: timingToleranceSeconds,
                                         requiresSameEvents: requiresSameEvents)
    for failure in GoldenReplay.boundProblems(of: equivalence)
        + equivalence.failures(expected: expected, actual: actual, languageTag: languageTag) {
        XCTFail(failure, file: file, line: line)
    }
}

/// Asserts that `outcome` matches the golden outcome recorded at `url`
/// (by default: same words, times within 50 ms, same event order).
public func XCTAssertMatchesGolden(_ outcome: RecognitionOutcome, at url: URL,
                                   within equivalence: OutcomeEquivalence = GoldenReplay.defaultEquivalence,
                                   languageTag: String = "en", file: StaticString = #filePath, line: UInt = #line) {
    do {
        for failure in try GoldenReplay.failures(of: outcome, againstGoldenAt: url, within: equivalence,
                                                 languageTag: languageTag) {
            XCTFail(failure, file: file, line: line)
        }
    } catch {
        XCTFail("golden \(url.path): \(error)", file: file, line: line)
    }
}
