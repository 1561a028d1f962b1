import Foundation
import Testing
import TestSupport
@testable import SpeechEngine

@Suite("LogMelSpectrogram")
struct LogMelSpectrogramTests {
    /// The reference clip's samples, scaled like the reference script (int16 / 32768).
    private func referenceSamples(_ reference: LogMelReferenceData) throws -> [Float] {
        let samples = try AudioDecoder.decode(contentsOf: Fixtures.corpusClip(reference.clip))
        #expect(samples.count == reference.sampleCount)
        return samples
    }

    private func expectMatches(_ mel: MelSpectrogram, _ expected: LogMelReferenceData.Spectrogram) {
        #expect(mel.melCount == 80)
        #expect(mel.frameCount == expected.frameCount)
        let globalMax = mel.values.max() ?? 0
        #expect(abs(Double(globalMax) - expected.globalMax) < 1e-3)
        var worst = 0.0
        for (key, column) in expected.frames {
            let frame = Int(key)!
            for bin in 0..<80 {
                worst = max(worst, abs(Double(mel[mel: bin, frame: frame]) - column[bin]))
            }
        }
        #expect(worst <= 1e-4, "largest difference from the numpy reference: \(worst)")
    }

    @Test("JFK clip matches Whisper's formula (numpy reference) within 1e-4")
    func matchesReferenceUnpadded() throws {
        let reference = try LogMelReferenceData.load()
        let mel = LogMelSpectrogram().compute(try referenceSamples(reference))
        expectMatches(mel, reference.unpadded)
    }

    @Test("JFK clip with 30 s of padding (as transcribe does) matches the reference within 1e-4")
    func matchesReferencePadded() throws {
        let reference = try LogMelReferenceData.load()
        let mel = LogMelSpectrogram().compute(try referenceSamples(reference),
                                              paddingSamples: reference.padded.paddingSamples)
        expectMatches(mel, reference.padded)
    }

    @Test("Frame count is (samples + padding) / 160; tiny and empty inputs give no frames")
    func frameCounts() {
        let front = LogMelSpectrogram()
        #expect(front.compute([]).frameCount == 0)
        #expect(front.compute([Float](repeating: 0.1, count: 159)).frameCount == 0)
        #expect(front.compute([Float](repeating: 0.1, count: 160)).frameCount == 1)
        #expect(front.compute([], paddingSamples: 480_000).frameCount == 3_000)
        #expect(front.compute([Float](repeating: 0, count: 16_000), paddingSamples: 16_000).frameCount == 200)
    }

    @Test("Digital silence normalises to the floor (log10(1e-10) + 4) / 4 = -1.5")
    func silenceLevel() {
        let mel = LogMelSpectrogram().compute([Float](repeating: 0, count: 8_000))
        #expect(mel.values.allSatisfy { abs($0 + 1.5) < 1e-6 })
    }

    @Test("A 1 kHz tone peaks in the band around 1 kHz, and the 8-decade clamp holds")
    func tonePeaksInItsBand() {
        let tone = (0..<16_000).map { Float(0.5 * sin(2 * Double.pi * 1_000 * Double($0) / 16_000)) }
        let front = LogMelSpectrogram()
        let mel = front.compute(tone)
        let frame = mel.frameCount / 2
        let loudest = (0..<80).max { mel[mel: $0, frame: frame] < mel[mel: $1, frame: frame] }!
        // The band whose filter weights bin 25 (1 kHz at 40 Hz per bin) the most.
        let expected = (0..<80).max { front.filterBank.weight(mel: $0, bin: 25) < front.filterBank.weight(mel: $1, bin: 25) }!
        #expect(abs(loudest - expected) <= 1)
        let top = mel.values.max()!, bottom = mel.values.min()!
        #expect(top - bottom <= 2.0 + 1e-5)  // 8 decades / 4
    }

    @Test("Reflect padding mirrors the signal without repeating the edge sample")
    func reflectPadding() {
        let padded = LogMelSpectrogram.reflectPadded([1, 2, 3, 4, 5], totalCount: 7, pad: 3)
        // signal with zero padding: 1 2 3 4 5 0 0 → reflect by 3 on each side.
        #expect(padded == [4, 3, 2, 1, 2, 3, 4, 5, 0, 0, 0, 5, 4])
        let short = LogMelSpectrogram.reflectPadded([1, 2], totalCount: 2, pad: 3)
        #expect(short == [2, 1, 2, 1, 2, 1, 2, 1])
    }

    @Test("128 bands (large-v3) compute with the same framing, silence at the floor")
    func oneHundredTwentyEightBands() {
        let front = LogMelSpectrogram(melCount: 128)
        let mel = front.compute([Float](repeating: 0, count: 1_600), paddingSamples: 160)
        #expect(mel.melCount == 128 && mel.frameCount == 11)
        #expect(mel.values.allSatisfy { abs($0 + 1.5) < 1e-6 })
    }

    @Test("paddingSamples matches appending that many zeros (within float rounding, 1e-4)")
    func paddingEqualsAppendedZeros() {
        let speechLike: [Float] = (0..<20_123).map { index in
            let time = Double(index)
            let low: Double = 0.3 * sin(time * 0.07)
            let high: Double = 0.2 * sin(time * 0.31 + 1)
            return Float(low + high)
        }
        let front = LogMelSpectrogram()
        for padding in [0, 199, 399, 400, 401, 1_000, 48_000] {
            let padded = front.compute(speechLike, paddingSamples: padding)
            let explicit = front.compute(speechLike + [Float](repeating: 0, count: padding))
            #expect(padded.frameCount == explicit.frameCount)
            let worst = zip(padded.values, explicit.values).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= 1e-4, "padding \(padding): largest difference \(worst)")
        }
    }
}
