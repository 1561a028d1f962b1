import Foundation
import Testing
@testable import SpeechEvaluation

@Suite struct EvaluationReportTests {
    func clip(_ id: String, set: String, language: String, duration: Double, counts: ErrorCounts,
              seconds: Double? = 1) -> EvaluatedClip {
        let entry = ManifestEntry(id: id, set: set, languageTag: language, durationSeconds: duration,
                                  audioURL: URL(fileURLWithPath: "/\(id).wav"), referenceText: "")
        return EvaluatedClip(entry: entry, hypothesis: "",
                             score: ClipScore(unit: LanguageTag.scoringUnit(for: language), counts: counts),
                             processingSeconds: seconds)
    }

    var clips: [EvaluatedClip] {
        [
            clip("a", set: "libri", language: "en-US", duration: 10, counts: ErrorCounts(substitutions: 1, referenceCount: 10)),
            clip("b", set: "libri", language: "en-US", duration: 10, counts: ErrorCounts(deletions: 1, referenceCount: 30)),
            clip("c", set: "digits", language: "en", duration: 5, counts: ErrorCounts(insertions: 5, referenceCount: 5)),
            clip("d", set: "other", language: "sv", duration: 4, counts: ErrorCounts(substitutions: 2, referenceCount: 4)),
            clip("e", set: "other", language: "ja", duration: 6, counts: ErrorCounts(deletions: 1, referenceCount: 20)),
        ]
    }

    @Test func setRateIsTotalErrorsOverTotalReference() {
        let sets = EvaluationReport(clips: clips).sets
        let libri = sets.first { $0.name == "libri" }
        // (1 + 1) / (10 + 30) = 5 %, not the mean of 10 % and 3.3 %.
        #expect(libri?.rate == 0.05)
        #expect(libri?.clipCount == 2)
        #expect(libri?.realTimeFactor == 0.1)
    }

    @Test func mixedUnitSetsAreSplitByUnit() {
        let sets = EvaluationReport(clips: clips).sets
        #expect(sets.map(\.name) == ["libri", "digits", "other", "other"])
        #expect(sets.filter { $0.name == "other" }.map(\.unit) == [.words, .characters])
    }

    @Test func englishTotalHonoursExclusions() {
        let all = EvaluationReport(clips: clips).englishTotal
        #expect(all?.counts.referenceCount == 45)
        #expect(all?.clipCount == 3)
        let withoutDigits = EvaluationReport(clips: clips, excludedFromEnglishTotal: ["digits"]).englishTotal
        #expect(withoutDigits?.counts.referenceCount == 40)
        #expect(withoutDigits?.rate == 0.05)
    }

    @Test func unitTotals() {
        let report = EvaluationReport(clips: clips)
        #expect(report.total(of: .characters)?.counts.referenceCount == 20)
        #expect(report.total(of: .words)?.counts.referenceCount == 49)
    }

    @Test func realTimeFactorIsNilWhenAnyClipIsUntimed() {
        var untimed = clips
        untimed[0].processingSeconds = nil
        #expect(EvaluationReport(clips: untimed).sets[0].realTimeFactor == nil)
    }

    @Test func tableListsEverySetAndTotals() {
        let table = EvaluationReport(clips: clips, excludedFromEnglishTotal: ["digits"]).table
        #expect(table.contains("libri"))
        #expect(table.contains("5.00%"))
        #expect(table.contains("english"))
        #expect(table.contains("CER"))
        #expect(table.split(separator: "\n").count == 1 + 4 + 1 + 3)
    }
}
