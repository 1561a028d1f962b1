import Foundation
import SpeechEngine

/// Where one transcription's time went, stage by stage, from a `StageClock`.
///
/// `decode` is the whole of decoding; the `decode.*` rows split it (the
/// prompt's forward passes, the one-token steps, the logits projection, the
/// search bookkeeping), so they are indented under it and their shares are of
/// the wall time like every other row; `decode.speculated` only counts the
/// tokens a greedy pass took from its prompt's pass instead of a step.
/// `other` is the wall time no stage holds (segment building, copies, the
/// unmeasured rest of decoding).
struct StageBreakdown: Sendable, Encodable {
    /// One stage's total.
    struct Row: Sendable, Codable {
        /// The stage's name (`StageClock.Stage.rawValue`), or `other`.
        var stage: String
        var seconds: Double
        /// How many times it ran (windows encoded, decoder passes, …).
        var calls: Int
        /// Milliseconds per call.
        var millisecondsPerCall: Double
        /// Fraction of the wall time.
        var share: Double
    }

    var rows: [Row]
    /// The transcription's wall time the shares are of.
    var wallSeconds: Double

    /// Rows already computed (read back from a run's JSON report).
    init(rows: [Row], wallSeconds: Double) {
        self.rows = rows
        self.wallSeconds = wallSeconds
    }

    init(clock: StageClock, wallSeconds: Double) {
        self.wallSeconds = wallSeconds
        let seconds = clock.seconds
        let counts = clock.counts
        rows = StageClock.Stage.allCases.compactMap { stage in
            guard let value = seconds[stage] else { return nil }
            let calls = counts[stage] ?? 0
            return Row(stage: stage.rawValue, seconds: value, calls: calls,
                       millisecondsPerCall: calls > 0 ? value * 1000 / Double(calls) : 0,
                       share: wallSeconds > 0 ? value / wallSeconds : 0)
        }
        // Top-level stages (no dot) partition the wall time; the rest is "other".
        let measured = rows.filter { !$0.stage.contains(".") }.map(\.seconds).reduce(0, +)
        let other = max(0, wallSeconds - measured)
        rows.append(Row(stage: "other", seconds: other, calls: 0, millisecondsPerCall: 0,
                        share: wallSeconds > 0 ? other / wallSeconds : 0))
    }

    /// The breakdown as aligned text lines, sub-stages indented.
    var table: String {
        var lines = ["stage                 seconds   share    calls   ms/call"]
        for row in rows {
            let name = row.stage.contains(".") ? "  " + row.stage : row.stage
            let calls = row.calls > 0 ? String(row.calls) : ""
            // Counted-only stages (`decode.speculated`) have no time per call.
            let perCall = row.calls > 0 && row.seconds > 0 ? String(format: "%.2f", row.millisecondsPerCall) : ""
            lines.append(name.padding(toLength: 20, withPad: " ", startingAt: 0)
                         + String(format: "%9.3f %6.1f%%", row.seconds, row.share * 100)
                         + Self.rightAligned(calls, 9) + Self.rightAligned(perCall, 10))
        }
        return lines.joined(separator: "\n")
    }

    private static func rightAligned(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
