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

    @Test func featuresDoNotDependOnWhenTheyAreAskedFor() {
        // A glide from 120 to 240 Hz with a pause: voiced, unvoiced and the
        // jitter between frames all depend on audio across append boundaries.
        let glide = (0..<24_000).map { index -> Float in
            let time = Double(index) / 16_000
            return 0.3 * Float(sin(2 * .pi * (120 * time + 40 * time * time)))
        }
        let samples = glide + [Float](repeating: 0, count: 4_000) + Self.tone(200, seconds: 0.5)
        let whole = VoiceAnalyzer()
        whole.append(samples)
        let streamed = VoiceAnalyzer()
        var asked: [VoiceAnalyzer.Frames] = []
        stride(from: 0, to: samples.count, by: 777).forEach {
            streamed.append(Array(samples[$0..<min(samples.count, $0 + 777)]))
            // Asking mid-stream must not freeze frames analysed on partial audio.
            if $0 % (777 * 5) == 0 { asked.append(streamed.frames(from: 0, to: 10)) }
        }
        let end = Double(samples.count) / 16_000
        #expect(streamed.frames(from: 0, to: end) == whole.frames(from: 0, to: end))
        #expect(streamed.frames(from: 0.73, to: 1.41) == whole.frames(from: 0.73, to: 1.41))
        #expect(asked.count >= 9)
        #expect(whole.frames(from: 0, to: end).voicing.count == Int((end / 0.01).rounded(.down)))
    }

    @Test func keepsOnlyTheAudioTheNextFrameReads() {
        // A minute in 4,096-frame taps: the features stay, the audio does not
        // (before, the whole stream's audio stayed: 2 MB a minute of a rolling task).
        let analyzer = VoiceAnalyzer()
        let tap = Self.tone(125, seconds: 4_096.0 / 16_000)   // 32 whole periods: seamless taps
        for _ in 0..<(60 * 16_000 / 4_096) { analyzer.append(tap) }
        #expect(analyzer.retainedSampleCount < 453 + 4_096 / 2)
        #expect(analyzer.frames(from: 59, to: 59.5).voicing.allSatisfy { $0 > 0.9 })
    }
}
