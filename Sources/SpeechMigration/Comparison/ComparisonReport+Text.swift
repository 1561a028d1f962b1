import Foundation

extension ComparisonReport {
    /// A readable report: the transcripts side by side (one line per path),
    /// then for each path against the baseline its WER, word diff and the
    /// timing and confidence of every matching word.
    public var text: String {
        var lines = ["== \(file)"]
        let width = outcomes.map(\.path.rawValue.count).max() ?? 6
        for outcome in outcomes {
            let name = outcome.path.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
            let error = outcome.error.map { code in outcome.errorDescription.map { "\(code): \($0)" } ?? code }
            let body = error.map { "(\($0)) \(outcome.transcript)" } ?? outcome.transcript
            lines.append("  \(name) | \(body)")
        }
        let failed = Set(outcomes.filter(\.failed).map(\.path))
        for comparison in comparisons {
            lines.append("")
            // Two empty transcripts "agree"; a failed path has nothing to compare.
            if let path = [comparison.baseline, comparison.other].first(where: failed.contains) {
                lines.append("  \(comparison.other.rawValue) vs \(comparison.baseline.rawValue): not compared, \(path.rawValue) failed")
                continue
            }
            lines.append(String(format: "  %@ vs %@: WER %.3f", comparison.other.rawValue,
                                comparison.baseline.rawValue, comparison.wordErrorRate))
            lines.append("    diff: \(comparison.wordDiff.isEmpty ? "(both empty)" : comparison.wordDiff)")
            if let mean = comparison.meanTimingDifference, let worst = comparison.largestTimingDifference {
                lines.append(String(format: "    timing: %d matching words, mean Δ %.3f s, max Δ %.3f s (\"%@\")",
                                    comparison.words.count, mean, worst.difference, worst.word))
            }
            if !comparison.words.isEmpty {
                lines.append("    word                 start(base) start(other)   Δstart  conf(base) conf(other)  Δconf")
                for word in comparison.words {
                    lines.append("    " + Self.row(word))
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func row(_ word: OutcomeComparison.WordDifference) -> String {
        let name = word.word.count > 20 ? String(word.word.prefix(19)) + "…" : word.word
        let confidence = { (value: Double?) in value.map { String(format: "%10.3f", $0) } ?? "         –" }
        let delta = word.confidenceDifference.map { String(format: "%+7.3f", $0) } ?? "      –"
        return name.padding(toLength: 20, withPad: " ", startingAt: 0)
            + String(format: " %11.3f %12.3f %+8.3f", word.baselineStart, word.otherStart,
                     word.otherStart - word.baselineStart)
            + " " + confidence(word.baselineConfidence) + "  " + confidence(word.otherConfidence) + " " + delta
    }
}
