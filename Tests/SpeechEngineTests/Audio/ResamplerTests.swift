import Foundation
import Testing
@testable import SpeechEngine

@Suite("Resampler")
struct ResamplerTests {
    /// The frequency of `samples` at `sampleRate`, from a DFT peak search around `near`
    /// (0.1 Hz steps), which is independent of the resampler.
    private func dominantFrequency(_ samples: [Float], sampleRate: Double, near: Double) -> Double {
        var best = (hz: 0.0, power: -1.0)
        for step in -200...200 {
            let hz = near + Double(step) * 0.1
            var re = 0.0, im = 0.0
            for (index, value) in samples.enumerated() {
                let angle = 2 * Double.pi * hz * Double(index) / sampleRate
                re += Double(value) * cos(angle)
                im -= Double(value) * sin(angle)
            }
            let power = re * re + im * im
            if power > best.power { best = (hz, power) }
        }
        return best.hz
    }

    @Test("A 1 kHz sine at 44.1 kHz stays 1 kHz at 16 kHz, with the same amplitude and length")
    func sineKeepsFrequency() throws {
        let input = AudioTestFiles.sine(hz: 1_000, seconds: 1, sampleRate: 44_100)
        let output = try Resampler.resample(input, from: 44_100, to: 16_000)
        #expect(abs(output.count - 16_000) <= 1)
        let middle = Array(output[4_000..<12_000])
        #expect(abs(dominantFrequency(middle, sampleRate: 16_000, near: 1_000) - 1_000) <= 0.2)
        let peak = middle.map { abs($0) }.max() ?? 0
        #expect(abs(peak - 0.5) < 0.01, "peak \(peak)")
    }

    @Test("Upsampling 8 kHz → 16 kHz keeps a 440 Hz tone at 440 Hz")
    func upsample() throws {
        let output = try Resampler.resample(AudioTestFiles.sine(hz: 440, seconds: 0.5, sampleRate: 8_000),
                                            from: 8_000, to: 16_000)
        #expect(abs(output.count - 8_000) <= 1)
        #expect(abs(dominantFrequency(Array(output[2_000..<6_000]), sampleRate: 16_000, near: 440) - 440) <= 0.2)
    }

    @Test("Streaming in uneven chunks gives the same signal as one call")
    func streamingMatchesOneShot() throws {
        let input = AudioTestFiles.sine(hz: 523.25, seconds: 2, sampleRate: 48_000)
        let oneShot = try Resampler.resample(input, from: 48_000, to: 16_000)
        let resampler = try Resampler(inputRate: 48_000)
        var streamed: [Float] = []
        var start = 0
        for size in [1, 7, 480, 4_800, 13, 10_000, 96_000] where start < input.count {
            let end = min(input.count, start + size)
            streamed += resampler.process(Array(input[start..<end]))
            start = end
        }
        streamed += resampler.process(Array(input[start...]))
        streamed += resampler.finish()
        #expect(streamed.count == oneShot.count)
        let worst = zip(streamed, oneShot).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-5, "largest difference \(worst)")
        #expect(resampler.finish().isEmpty)
    }

    @Test("Equal rates pass samples through; empty input gives empty output")
    func passThroughAndEmpty() throws {
        let samples: [Float] = [0.1, -0.2, 0.3]
        #expect(try Resampler.resample(samples, from: 16_000, to: 16_000) == samples)
        #expect(try Resampler.resample([], from: 44_100, to: 16_000).isEmpty)
    }

    @Test("Invalid rates throw invalidArgument")
    func invalidRates() {
        for (input, output) in [(0.0, 16_000.0), (-1, 16_000), (44_100, 0), (.nan, 16_000), (.infinity, 16_000)] {
            #expect(throws: EngineError.self) { try Resampler(inputRate: input, outputRate: output) }
        }
        let error = try? #require(throws: EngineError.self) { try Resampler(inputRate: 0) }
        #expect(error?.code == .invalidArgument)
    }
}
