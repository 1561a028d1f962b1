import SpeechMigration
import Testing

@Suite struct OutcomeEquivalenceTests {
    @Test("within the WER bound and timing tolerance there are no failures")
    func equivalent() {
        let expected = OutcomeFixtures.outcome(.legacy, "the quick brown fox jumps")
        let actual = OutcomeFixtures.outcome(.modern, "the quick brown fox jumped", shift: 0.03)
        let bounds = OutcomeEquivalence(maximumWordErrorRate: 0.2, timingToleranceSeconds: 0.05)
        #expect(bounds.failures(expected: expected, actual: actual).isEmpty)
    }

    @Test("each exceeded bound is reported with what was measured")
    func failures() {
        let expected = OutcomeFixtures.outcome(.modern, "the quick brown fox jumps")
        let actual = OutcomeFixtures.outcome(.modern, "a quick brown box jumps", shift: 0.2,
                                             events: ["final"], error: "kAFAssistantErrorDomain 1110")
        let bounds = OutcomeEquivalence(maximumWordErrorRate: 0.2, timingToleranceSeconds: 0.05, requiresSameEvents: true)
        let failures = bounds.failures(expected: expected, actual: actual)
        #expect(failures.count == 4)
        #expect(failures[0].contains("WER 0.400") && failures[0].contains("[-fox-]{+box+}"))
        #expect(failures[1].contains("more than 0.050 s apart"))
        #expect(failures[2].contains("event order differs"))
        #expect(failures[3].contains("kAFAssistantErrorDomain 1110"))
    }

    @Test("without a timing tolerance times are not compared")
    func noTiming() {
        let expected = OutcomeFixtures.outcome(.legacy, "hello world")
        let actual = OutcomeFixtures.outcome(.modern, "hello world", shift: 3)
        #expect(OutcomeEquivalence().failures(expected: expected, actual: actual).isEmpty)
    }
}
