import Foundation
import Testing
@testable import SpeechEngine

/// The logit rules against Scripts/reference/decoding_reference.py's port of
/// whisper/decoding.py (`SuppressBlank`, `SuppressTokens`, `ApplyTimestampRules`).
@Suite struct LogitFiltersTests {
    static let special = SpecialTokens(isMultilingual: true)

    /// The `[start, end)` runs of finite entries.
    static func finiteRanges(_ logits: [Float]) -> [[Int]] {
        var runs: [[Int]] = []
        var start: Int?
        for (i, value) in logits.enumerated() {
            if value > -.infinity, start == nil { start = i }
            if value == -.infinity, let open = start { runs.append([open, i]); start = nil }
        }
        if let open = start { runs.append([open, logits.count]) }
        return runs
    }

    static func logits(_ reference: DecodingReferenceData.LogitRuleCase) -> [Float] {
        var logits = [Float](repeating: reference.fill, count: special.vocabularySize)
        for pair in reference.overrides { logits[Int(pair[0])] = Float(pair[1]) }
        return logits
    }

    static func filters(_ reference: DecodingReferenceData.LogitRuleCase) -> [LogitFilter] {
        reference.filters.compactMap { name in
            switch name {
            case "suppressBlank": return LogitFilters.suppressBlank(reference.blankTokens)
            case "suppressTokens": return LogitFilters.suppressTokens(reference.suppressedTokens)
            case "timestampRules":
                return LogitFilters.timestampRules(special, maxInitialTimestampIndex: reference.maxInitialTimestampIndex)
            default:
                Issue.record("unknown filter \(name) in DecodingReference.json")
                return nil
            }
        }
    }

    @Test("filters leave exactly the reference's tokens finite", arguments: try DecodingReferenceData.shared().logitRules)
    func matchesReference(_ reference: DecodingReferenceData.LogitRuleCase) {
        let original = Self.logits(reference)
        var logits = original
        let tokens = reference.prompt + reference.sampled
        logits.withUnsafeMutableBufferPointer { row in
            for filter in Self.filters(reference) { filter.apply(row, tokens, reference.prompt.count) }
        }
        #expect(Self.finiteRanges(logits) == reference.finiteRanges)
        // Filters only mask: what survives keeps its value.
        let changed = zip(original, logits).filter { $1 > -.infinity && $0 != $1 }.count
        #expect(changed == 0)
    }

    /// The "timestamp mass beats the best text token" rule sits on a knife
    /// edge: one text logit a hair above the timestamps' log-sum-exp keeps text.
    @Test func timestampMassRuleComparesLogSumExpWithTheBestTextLogit() {
        let special = Self.special
        let prompt = [special.startOfTranscript]
        let sampled = [special.timestampBegin, 500]
        let mass = Float(1.5 + log(10.0)) // ten timestamps at 1.5
        for (textLogit, expectTextKept) in [(mass + 0.01, true), (mass - 0.01, false)] {
            var logits = [Float](repeating: -.infinity, count: special.vocabularySize)
            logits[700] = textLogit
            for k in 0..<10 { logits[special.timestampBegin + 30 + k] = 1.5 }
            logits.withUnsafeMutableBufferPointer { row in
                LogitFilters.timestampRules(special).apply(row, prompt + sampled, prompt.count)
            }
            #expect((logits[700] > -.infinity) == expectTextKept, "text logit \(textLogit) vs mass \(mass)")
            #expect(logits[special.timestampBegin + 30] == 1.5)
        }
    }

    @Test func everyTokenMaskedLeavesEveryTokenMaskedWithoutNaN() {
        let special = Self.special
        var logits = [Float](repeating: -.infinity, count: special.vocabularySize)
        logits.withUnsafeMutableBufferPointer { row in
            LogitFilters.timestampRules(special).apply(row, [special.startOfTranscript], 1)
        }
        #expect(logits.allSatisfy { $0 == -.infinity })
    }

    @Test func suppressTokensIgnoresIdsOutsideTheVocabulary() {
        var logits: [Float] = [0, 1, 2, 3]
        logits.withUnsafeMutableBufferPointer { row in
            LogitFilters.suppressTokens([-1, 2, 4, 99]).apply(row, [], 0)
        }
        #expect(logits == [0, 1, -.infinity, 3])
    }

    @Test func logSoftmaxMatchesTheDefinition() {
        let logits: [Float] = [1, 2, 3, -.infinity, 0.5]
        let result = logits.withUnsafeBufferPointer { LogProbabilities.logSoftmax($0) }
        let normaliser = log(exp(1.0) + exp(2.0) + exp(3.0) + exp(0.5))
        for (value, logit) in zip(result, logits) where logit > -.infinity {
            #expect(abs(Double(value) - (Double(logit) - normaliser)) < 1e-5)
        }
        #expect(result[3] == -.infinity)
    }
}
