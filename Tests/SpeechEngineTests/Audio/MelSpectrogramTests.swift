import Foundation
import Testing
@testable import SpeechEngine

@Suite("MelSpectrogram")
struct MelSpectrogramTests {
    /// 2 bands × 5 frames with values `mel * 10 + frame`.
    private let mel = MelSpectrogram(melCount: 2, frameCount: 5,
                                     values: [0, 1, 2, 3, 4, 10, 11, 12, 13, 14])

    @Test("Values are mel-major")
    func layout() {
        #expect(mel[mel: 1, frame: 3] == 13)
        #expect(mel[mel: 0, frame: 4] == 4)
        #expect(abs(mel.durationSeconds - 0.05) < 1e-12)
    }

    @Test("window slices like mel[:, seek:seek+N] and pads past the end with 0.0 (pad_or_trim)")
    func windowPadsWithZeros() {
        #expect(mel.window(startFrame: 1, frameCount: 3) == [1, 2, 3, 11, 12, 13])
        #expect(mel.window(startFrame: 3, frameCount: 4) == [3, 4, 0, 0, 13, 14, 0, 0])
        #expect(mel.window(startFrame: 5, frameCount: 2) == [0, 0, 0, 0])
        #expect(mel.window(startFrame: 9, frameCount: 1) == [0, 0])
        #expect(mel.window(startFrame: 0, frameCount: 0) == [])
    }

    @Test("zeroingFramesFrom keeps the audio's frames and zeroes the padding after them")
    func windowZeroingPadding() {
        #expect(mel.window(startFrame: 1, frameCount: 4, zeroingFramesFrom: 2) == [1, 2, 0, 0, 11, 12, 0, 0])
        #expect(mel.window(startFrame: 0, frameCount: 3, zeroingFramesFrom: 0) == [0, 0, 0, 0, 0, 0])
        // Content to the end of the window: the plain slice.
        #expect(mel.window(startFrame: 0, frameCount: 3, zeroingFramesFrom: 3) == mel.window(startFrame: 0, frameCount: 3))
        #expect(mel.window(startFrame: 0, frameCount: 3, zeroingFramesFrom: 9) == mel.window(startFrame: 0, frameCount: 3))
    }

    @Test("A 3000-frame window of a short clip keeps its frames and zero-fills the rest")
    func whisperWindow() {
        let samples = (0..<32_000).map { Float(sin(Double($0) * 0.05)) * 0.3 }
        let spectrogram = LogMelSpectrogram().compute(samples)
        let window = spectrogram.window(startFrame: 0, frameCount: 3_000)
        #expect(window.count == 80 * 3_000)
        for band in [0, 40, 79] {
            #expect(window[band * 3_000 + 10] == spectrogram[mel: band, frame: 10])
            #expect(window[band * 3_000 + 199] == spectrogram[mel: band, frame: 199])
            #expect(window[band * 3_000 + 200] == 0)
            #expect(window[band * 3_000 + 2_999] == 0)
        }
    }
}
