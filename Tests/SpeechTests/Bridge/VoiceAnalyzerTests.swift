import Foundation
import Testing
@testable import Speech

@Suite struct VoiceAnalyzerTests {
    static func tone(_ frequency: Double, seconds: Double, amplitude: Float = 0.3,
                     amplitudeEnvelope: ((Double) -> Float)? = nil) -> [Float] {
        (0..<Int(seconds * 16_000)).map { index in
            let time = Double(index) / 16_000
            return (amplitudeEnvelope?(time) ?? amplitude) * Float(sin(2 * .pi * frequency * time))
        }
    }

    @Test(arguments: [110.0, 180.0, 250.0])
    func steadyToneGivesItsPitchHighVoicingAndLowJitter(frequency: Double) {
        let analyzer = VoiceAnalyzer()
        let samples = Self.tone(frequency, seconds: 1)
        // Appended in odd-sized chunks: decimation must carry across appends.
        stride(from: 0, to: samples.count, by: 1_001).forEach {
            analyzer.append(Array(samples[$0..<min(samples.count, $0 + 1_001)]))
        }
        let frames = analyzer.frames(from: 0.1, to: 0.8)
        #expect(frames.voicing.count == 70)
        #expect(frames.voicing.allSatisfy { $0 > 0.9 })
        for logPitch in frames.logPitch {
            #expect(abs(exp(logPitch) - frequency) / frequency < 0.02)
        }
        #expect(frames.jitter.dropFirst().allSatisfy { $0 < 1 })
        #expect(frames.shimmer.dropFirst().allSatisfy { $0 < 0.5 })
    }

    @Test func noiseAndSilenceAreUnvoiced() {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<16_000).map { _ in Float.random(in: -0.3...0.3, using: &generator) }
        let analyzer = VoiceAnalyzer()
        analyzer.append(noise + [Float](repeating: 0, count: 16_000))
        let noiseFrames = analyzer.frames(from: 0, to: 0.9)
        #expect(noiseFrames.voicing.filter { $0 > 0.45 }.count < noiseFrames.voicing.count / 10)
        let silence = analyzer.frames(from: 1.1, to: 1.9)
        #expect(silence.logPitch.allSatisfy { $0 == 0 })
        #expect(silence.voicing.allSatisfy { $0 == 0 })
    }

    @Test func shimmerFollowsAmplitudeSteps() {
        // 0.3 → 0.15 every 50 ms: a 6 dB step at each change.
        let samples = Self.tone(150, seconds: 1) { time in Int(time / 0.05) % 2 == 0 ? 0.3 : 0.15 }
        let analyzer = VoiceAnalyzer()
        analyzer.append(samples)
        let shimmer = analyzer.frames(from: 0, to: 1).shimmer
        #expect(shimmer.contains { abs($0 - 6.02) < 1 })
    }
}
