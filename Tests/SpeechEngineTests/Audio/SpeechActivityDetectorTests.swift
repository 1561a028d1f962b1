import Foundation
import Testing
import TestSupport
@testable import SpeechEngine

@Suite("SpeechActivityDetector")
struct SpeechActivityDetectorTests {
    private static let rate = 16_000.0

    /// Deterministic white noise of RMS `10^(dB/20)`.
    private static func whiteNoise(seconds: Double, rmsDB: Double, seed: UInt64 = 7) -> [Float] {
        var state = seed
        let rms = pow(10, rmsDB / 20)
        return (0..<Int(seconds * rate)).map { _ in
            // xorshift64*, uniform in [-1, 1): RMS 1/√3.
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            let unit = Double((state &* 2_685_821_657_736_338_717) >> 11) / Double(1 << 53) * 2 - 1
            return Float(unit * rms * 3.0.squareRoot())
        }
    }

    /// A voiced-speech stand-in: 20 harmonics of 150 Hz, about -20 dBFS.
    private static func voiced(seconds: Double) -> [Float] {
        (0..<Int(seconds * rate)).map { index in
            let t = Double(index) / rate
            return Float((1...20).reduce(0.0) { $0 + 0.02 * sin(2 * Double.pi * 150 * Double($1) * t + Double($1)) })
        }
    }

    /// `base` with `burst` added from `startSeconds` on.
    private static func overlay(_ base: [Float], _ burst: [Float], atSeconds startSeconds: Double) -> [Float] {
        var mixed = base
        let start = Int(startSeconds * rate)
        for (offset, value) in burst.enumerated() where start + offset < mixed.count { mixed[start + offset] += value }
        return mixed
    }

    private static func seconds(_ regions: [Range<Int>]) -> [ClosedRange<Double>] {
        regions.map { Double($0.lowerBound) / rate...Double($0.upperBound) / rate }
    }

    @Test("Finds the speech in the JFK clip, starting where the speech starts")
    func jfk() throws {
        let samples = try AudioDecoder.decode(contentsOf: AudioTestFiles.jfk)
        let regions = Self.seconds(SpeechActivityDetector.speechRegions(in: samples))
        try #require(!regions.isEmpty)
        // "And so my fellow Americans" begins at about 0.32 s.
        #expect(regions[0].lowerBound >= 0.2 && regions[0].lowerBound <= 0.5, "\(regions)")
        // Inside "my fellow Americans" (~1 s) and "what your country can do" (~6 s).
        #expect(regions.contains { $0.contains(1.0) } && regions.contains { $0.contains(6.0) }, "\(regions)")
        let covered = regions.reduce(0) { $0 + $1.upperBound - $1.lowerBound } / 11
        #expect(covered > 0.4 && covered < 0.9, "speech fraction \(covered)")
    }

    @Test("Finds speech in LibriSpeech, LJ Speech, CMU ARCTIC, whispered and non-English corpus clips")
    func corpusClips() throws {
        for clip in ["audio/librispeech-dev-clean/1272-128104-0000.wav", "audio/ljspeech/LJ001-0002.wav",
                     "audio/cmu-arctic/cmu_arctic_us_aew_a0001.wav",
                     "audio/mfa-tests/mfa_whisper2.wav",  // whispering, about -50 dBFS
                     "audio/other-lang/mls_es_13697_11991_000000.wav", "audio/other-lang/aishell_BAC009S0724W0121.wav"] {
            let url = Fixtures.corpusClip(clip)
            guard FileManager.default.fileExists(atPath: url.path) else {
                Issue.record("corpus clip missing: \(url.path)")
                continue
            }
            #expect(SpeechActivityDetector.containsSpeech(try AudioDecoder.decode(contentsOf: url)), "\(clip)")
        }
    }

    @Test("Quiet whispering (about -50 dBFS, unvoiced) is mostly found, not just its loudest blip")
    func whispering() throws {
        let samples = try AudioDecoder.decode(contentsOf: Fixtures.corpusClip("audio/mfa-tests/mfa_whisper2.wav"))
        let covered = SpeechActivityDetector.speechRegions(in: samples).reduce(0) { $0 + $1.count }
        #expect(Double(covered) / Double(samples.count) > 0.3, "speech fraction \(Double(covered) / Double(samples.count))")
    }

    @Test("Digital silence gives no events and counts as trailing non-speech")
    func digitalSilence() {
        var detector = SpeechActivityDetector()
        let events = detector.process([Float](repeating: 0, count: 160_000)) + detector.finish()
        #expect(events.isEmpty)
        #expect(!detector.hasDetectedSpeech)
        #expect(abs(detector.trailingNonSpeechSeconds - 10) < 0.03)
    }

    @Test("Low noise is not speech: white at -60/-45/-30 dBFS, brown at -40, 50 Hz hum at -25")
    func lowNoise() {
        var brown: [Float] = []
        var level: Float = 0
        for value in Self.whiteNoise(seconds: 10, rmsDB: -40, seed: 11) {
            level = 0.995 * level + value * 0.1
            brown.append(level)
        }
        let hum = AudioTestFiles.sine(hz: 50, seconds: 10, sampleRate: Self.rate, amplitude: 0.08)
        let signals = [
            ("white -60", Self.whiteNoise(seconds: 10, rmsDB: -60)),
            ("white -45", Self.whiteNoise(seconds: 10, rmsDB: -45)),
            ("white -30", Self.whiteNoise(seconds: 10, rmsDB: -30)),
            ("brown", brown),
            ("hum", hum),
        ]
        for (label, samples) in signals {
            #expect(SpeechActivityDetector.speechRegions(in: samples).isEmpty, "\(label)")
        }
    }

    @Test("Speech over -45 dBFS white noise is still found")
    func speechInNoise() throws {
        let speech = try AudioDecoder.decode(contentsOf: AudioTestFiles.jfk)
        let noisy = zip(speech, Self.whiteNoise(seconds: 11, rmsDB: -45)).map { $0 + $1 }
        let regions = Self.seconds(SpeechActivityDetector.speechRegions(in: noisy))
        #expect(regions.contains { $0.contains(1.0) } && regions.contains { $0.contains(6.0) }, "\(regions)")
    }

    @Test("Chunk sizes do not change the events")
    func chunkInvariance() throws {
        let samples = try AudioDecoder.decode(contentsOf: AudioTestFiles.jfk)
        var whole = SpeechActivityDetector()
        let expected = whole.process(samples) + whole.finish()
        for chunk in [1_000, 160, 333, 4_000] {
            var detector = SpeechActivityDetector()
            var events: [SpeechActivityDetector.Event] = []
            var start = 0
            while start < samples.count {
                let end = min(samples.count, start + chunk)
                events += detector.process(Array(samples[start..<end]))
                start = end
            }
            events += detector.finish()
            #expect(events == expected, "chunk \(chunk)")
            #expect(detector.processedSampleCount == samples.count)
        }
    }

    @Test("Hysteresis: a 60 ms blip is ignored, a 200 ms pause is bridged, a 600 ms pause ends speech")
    func hysteresis() {
        let floor = Self.whiteNoise(seconds: 6, rmsDB: -60)
        var signal = Self.overlay(floor, Self.voiced(seconds: 0.06), atSeconds: 1.0)      // blip
        signal = Self.overlay(signal, Self.voiced(seconds: 0.5), atSeconds: 2.0)           // speech
        signal = Self.overlay(signal, Self.voiced(seconds: 0.5), atSeconds: 2.7)           // after 200 ms
        signal = Self.overlay(signal, Self.voiced(seconds: 0.5), atSeconds: 3.8)           // after 600 ms
        var detector = SpeechActivityDetector()
        let events = detector.process(signal) + detector.finish()
        let frame = 320
        func near(_ index: Int, _ seconds: Double) -> Bool { abs(index - Int(seconds * Self.rate)) <= frame }
        #expect(events.count == 4, "\(events)")
        guard events.count == 4,
              case .speechStarted(let firstStart) = events[0], case .speechEnded(let firstEnd) = events[1],
              case .speechStarted(let secondStart) = events[2], case .speechEnded(let secondEnd) = events[3]
        else { return }
        #expect(near(firstStart, 2.0) && near(firstEnd, 3.2), "\(events)")
        #expect(near(secondStart, 3.8) && near(secondEnd, 4.3), "\(events)")
        #expect(detector.hasDetectedSpeech && !detector.isSpeechActive)
    }

    @Test("finish() closes speech that runs to the end; trailing silence grows after speech")
    func finishAndTrailingSilence() {
        let floor = Self.whiteNoise(seconds: 3, rmsDB: -60)
        var detector = SpeechActivityDetector()
        let running = Self.overlay(floor, Self.voiced(seconds: 1.0), atSeconds: 2.0)
        let events = detector.process(running)
        #expect(events.count == 1 && detector.isSpeechActive)
        #expect(detector.trailingNonSpeechSeconds < 0.05)
        #expect(detector.finish() == [.speechEnded(sampleIndex: 48_000)])
        #expect(events.first?.sampleIndex == 32_000 && events.first?.seconds == 2.0, "\(events)")
        var second = SpeechActivityDetector()
        _ = second.process(Self.overlay(floor, Self.voiced(seconds: 0.5), atSeconds: 1.0))
        #expect(abs(second.trailingNonSpeechSeconds - 1.5) < 0.03, "\(second.trailingNonSpeechSeconds)")
    }
}
