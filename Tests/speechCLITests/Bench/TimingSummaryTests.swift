import Testing
@testable import SpeechCLI

@Suite struct TimingSummaryTests {
    @Test func minimumMedianMean() {
        let odd = TimingSummary(runs: [3, 1, 2])
        #expect(odd.minimum == 1)
        #expect(odd.median == 2)
        #expect(odd.mean == 2)
        #expect(TimingSummary(runs: [4, 1, 2, 3]).median == 2.5)
        #expect(TimingSummary(runs: []).median == 0)
    }
}
