import SpeechMigration
import Testing

@Suite struct OutcomeComparisonTests {
    @Test("normalised text: case, punctuation and spelled numbers are not differences")
    func normalisedEquality() {
        let legacy = OutcomeFixtures.outcome(.legacy, "go forward ten meters")
        let modern = OutcomeFixtures.outcome(.modern, "Go forward, 10 meters.")
        let comparison = OutcomeComparison(baseline: legacy, other: modern)
        #expect(comparison.wordErrorRate == 0)
        #expect(comparison.words.count == 4)
        #expect(comparison.largestTimingDifference?.difference == 0)
    }

    @Test("a substituted and an inserted word give WER 2/4 and a word diff")
    func differences() {
        let legacy = OutcomeFixtures.outcome(.legacy, "go forward ten meters")
        let other = OutcomeFixtures.outcome(.legacyOverModern, "go backward ten meters now")
        let comparison = OutcomeComparison(baseline: legacy, other: other)
        #expect(comparison.wordErrorRate == 0.5)
        // The English normaliser spells numbers as digits, as Whisper's does.
        #expect(comparison.wordDiff == "go [-forward-]{+backward+} 10 meters {+now+}")
        #expect(comparison.words.map(\.word) == ["go", "10", "meters"])
    }

    @Test("timing and confidence differences are measured per matching word")
    func timing() throws {
        let legacy = OutcomeFixtures.outcome(.legacy, "red green blue")
        var modern = OutcomeFixtures.outcome(.modern, "red green blue", shift: 0.12)
        modern.words[1].confidence = 0.5
        let comparison = OutcomeComparison(baseline: legacy, other: modern)
        let worst = try #require(comparison.largestTimingDifference)
        #expect(abs(worst.difference - 0.12) < 1e-9)
        #expect(abs((comparison.words[1].confidenceDifference ?? 0) + 0.4) < 1e-9)
        let mean = try #require(comparison.meanTimingDifference)
        #expect(abs(mean - 0.12) < 1e-9)
    }

    @Test("the text report shows every path's transcript, the WER and the diff")
    func textReport() {
        let report = ComparisonReport(file: "clip.wav", outcomes: [
            OutcomeFixtures.outcome(.legacy, "go forward ten meters"),
            OutcomeFixtures.outcome(.modern, "go forward 10 meters"),
            OutcomeFixtures.outcome(.modernOverLegacy, "go forwards ten meters"),
        ])
        let text = report.text
        #expect(text.contains("== clip.wav"))
        #expect(text.contains("modern-over-legacy | go forwards ten meters"))
        #expect(text.contains("modern vs legacy: WER 0.000"))
        #expect(text.contains("modern-over-legacy vs legacy: WER 0.250"))
        #expect(text.contains("[-forward-]{+forwards+}"))
        #expect(report.largestWordErrorRate == 0.25)
    }

    @Test("a failed path shows its error and message and is not compared; no speech is not a failure")
    func failedPathsAreNotCompared() {
        let failed = RecognitionOutcome(path: .modern, transcript: "", words: [], events: ["error"],
                                        error: "SFSpeechErrorDomain 5", errorDescription: "No model is available.")
        let silent = RecognitionOutcome(path: .batch, transcript: "", words: [], events: ["error"],
                                        error: "kAFAssistantErrorDomain 1110")
        #expect(failed.failed && !silent.failed && !OutcomeFixtures.outcome(.legacy, "go").failed)
        let text = ComparisonReport(file: "clip.wav", outcomes: [OutcomeFixtures.outcome(.legacy, "go forward"),
                                                                  failed, silent]).text
        #expect(text.contains("modern | (SFSpeechErrorDomain 5: No model is available.) "))
        #expect(text.contains("modern vs legacy: not compared, modern failed"))
        #expect(!text.contains("modern vs legacy: WER"))
        #expect(text.contains("batch vs legacy: WER 1.000"))
    }
}
