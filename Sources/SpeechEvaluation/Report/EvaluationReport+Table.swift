import Foundation

extension EvaluationReport {
    /// A plain-text table: one row per set, then the English total and the
    /// totals per unit. Rates are percentages with two decimals.
    ///
    /// ```
    /// set                       metric  clips   units    sub    del    ins   rate    RTF
    /// librispeech-dev-clean     WER         5     201      3      0      1   1.99%  0.112
    /// ```
    public var table: String {
        var rows = [Self.headerRow]
        rows += sets.map(Self.row)
        let totals = [englishTotal] + ScoringUnit.allCases.map { total(of: $0) }
        let present = totals.compactMap { $0 }
        if !present.isEmpty {
            rows.append(String(repeating: "-", count: Self.headerRow.count))
            rows += present.map(Self.row)
        }
        return rows.joined(separator: "\n") + "\n"
    }

    static let headerRow = "set".padding(toLength: 26, withPad: " ", startingAt: 0)
        + "metric" + ["clips", "units", "sub", "del", "ins"].map { leftPad($0, 7) }.joined()
        + leftPad("rate", 9) + leftPad("RTF", 8)

    static func row(_ summary: SetSummary) -> String {
        let name = summary.name.count > 25 ? String(summary.name.prefix(24)) + "…" : summary.name
        let counts = summary.counts
        let numbers = [summary.clipCount, counts.referenceCount, counts.substitutions,
                       counts.deletions, counts.insertions].map { leftPad(String($0), 7) }.joined()
        let rate = leftPad(String(format: "%.2f%%", summary.rate * 100), 9)
        let rtf = leftPad(summary.realTimeFactor.map { String(format: "%.3f", $0) } ?? "-", 8)
        return name.padding(toLength: 26, withPad: " ", startingAt: 0)
            + summary.unit.rateName.padding(toLength: 6, withPad: " ", startingAt: 0) + numbers + rate + rtf
    }

    static func leftPad(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
}
