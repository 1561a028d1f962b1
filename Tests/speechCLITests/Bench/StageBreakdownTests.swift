import Foundation
import SpeechEngine
import Testing
@testable import SpeechCLI

/// The stage breakdown `speech bench` prints: shares of the wall time, the
/// `decode.*` sub-stages indented under `decode`, the unmeasured rest as `other`.
@Suite struct StageBreakdownTests {
    static func clock() -> StageClock {
        let clock = StageClock()
        clock.measure(.encoder) { Thread.sleep(forTimeInterval: 0.02) }
        clock.measure(.decoder) {
            for _ in 0..<3 { clock.measure(.decoderStep) { Thread.sleep(forTimeInterval: 0.005) } }
        }
        return clock
    }

    @Test func rowsFollowTheStagesWithCountsAndTheRestIsOther() {
        let breakdown = StageBreakdown(clock: Self.clock(), wallSeconds: 1)
        #expect(breakdown.rows.map(\.stage) == ["encode", "decode", "decode.step", "other"])
        let step = breakdown.rows[2]
        #expect(step.calls == 3)
        #expect(abs(step.millisecondsPerCall - step.seconds * 1000 / 3) < 1e-9)
        // Sub-stages are inside `decode`, so `other` is the wall time less the top-level stages only.
        let topLevel = breakdown.rows[0].seconds + breakdown.rows[1].seconds
        #expect(abs(breakdown.rows[3].seconds - (1 - topLevel)) < 1e-9)
        #expect(breakdown.rows[1].seconds >= step.seconds)
    }

    @Test func theTableIndentsSubStages() {
        let table = StageBreakdown(clock: Self.clock(), wallSeconds: 1).table
        let lines = table.split(separator: "\n")
        #expect(lines.first?.hasPrefix("stage") == true)
        #expect(lines.contains { $0.hasPrefix("  decode.step") }, "\(table)")
        #expect(lines.contains { $0.hasPrefix("encode ") }, "\(table)")
    }

    /// Speculated tokens are counted, not timed: a row with its count, no time per call, nothing taken from `other`.
    @Test func countedStagesShowTheirCountAlone() {
        let clock = Self.clock()
        for _ in 0..<7 { clock.count(.speculatedToken) }
        let breakdown = StageBreakdown(clock: clock, wallSeconds: 1)
        let row = breakdown.rows.first { $0.stage == "decode.speculated" }
        #expect(row?.calls == 7)
        #expect(row?.seconds == 0)
        let line = breakdown.table.split(separator: "\n").first { $0.hasPrefix("  decode.speculated") }
        #expect(line?.trimmingCharacters(in: .whitespaces).hasSuffix(" 7") == true, "\(breakdown.table)")
        let other = breakdown.rows.last!
        #expect(other.stage == "other")
        #expect(abs(other.seconds - (1 - breakdown.rows[0].seconds - breakdown.rows[1].seconds)) < 1e-9)
    }

    @Test func rowsSurviveTheJSONReport() throws {
        let rows = StageBreakdown(clock: Self.clock(), wallSeconds: 1).rows
        let decoded = try JSONDecoder().decode([StageBreakdown.Row].self, from: JSONEncoder().encode(rows))
        #expect(decoded.map(\.stage) == rows.map(\.stage))
        #expect(decoded.map(\.calls) == rows.map(\.calls))
    }
}
