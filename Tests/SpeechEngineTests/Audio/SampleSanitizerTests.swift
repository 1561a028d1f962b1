import Testing
@testable import SpeechEngine

@Suite struct SampleSanitizerTests {
    @Test func nonFiniteSamplesBecomeSilence() {
        var samples: [Float] = [0.5, .nan, -0.25, .infinity, -.infinity, 1, -1, .signalingNaN]
        let report = SampleSanitizer.sanitize(&samples)
        #expect(samples == [0.5, 0, -0.25, 0, 0, 1, -1, 0])
        #expect(report.nonFiniteCount == 4)
        #expect(report.clippedCount == 0)
        #expect(report.changedAnything)
    }

    @Test func overshootIsClippedToTheInputRange() {
        var samples: [Float] = [1.5, -3, 0.99, .greatestFiniteMagnitude, -.leastNonzeroMagnitude]
        let report = SampleSanitizer.sanitize(&samples)
        #expect(samples == [1, -1, 0.99, 1, -.leastNonzeroMagnitude])
        #expect(report.clippedCount == 3)
        #expect(report.nonFiniteCount == 0)
    }

    @Test func cleanSamplesAreLeftAlone() {
        var samples = (0..<1_000).map { Float($0 % 200 - 100) / 100 }
        let before = samples
        let report = SampleSanitizer.sanitize(&samples)
        #expect(samples == before)
        #expect(!report.changedAnything)
        #expect(!SampleSanitizer.needsRepair(samples))
        #expect(SampleSanitizer.needsRepair(samples + [.nan]))
        #expect(SampleSanitizer.sanitized([]) == [])
    }

    /// All-NaN audio is silence, not an error (nothing to transcribe).
    @Test func allNaNIsSilence() {
        #expect(SampleSanitizer.sanitized([Float](repeating: .nan, count: 100)) == [Float](repeating: 0, count: 100))
    }
}
