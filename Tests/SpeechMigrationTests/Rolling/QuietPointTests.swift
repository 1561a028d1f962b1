@testable import SpeechMigration
import Testing

@Suite struct QuietPointTests {
    @Test("the cut lands in the quietest frame of the window")
    func quietestFrame() {
        var samples = [Float](repeating: 0.5, count: 16_000)
        for index in 9_000..<9_640 { samples[index] = 0.001 }
        let cut = QuietPoint.cutIndex(in: samples, window: 8_000..<12_000)
        #expect((9_000..<9_640).contains(cut))
    }

    @Test("a window shorter than a frame cuts at its end; bounds are clamped")
    func degenerate() {
        let samples = [Float](repeating: 0.1, count: 1_000)
        #expect(QuietPoint.cutIndex(in: samples, window: 900..<1_000) == 1_000)
        #expect(QuietPoint.cutIndex(in: samples, window: -50..<5_000) <= 1_000)
    }
}
