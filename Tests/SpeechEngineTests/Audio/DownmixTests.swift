import Testing
@testable import SpeechEngine

@Suite("Downmix")
struct DownmixTests {
    @Test("Stereo frames average their two channels")
    func stereo() {
        #expect(Downmix.mono(interleaved: [1, 0, 0.5, 0.5, -1, 1, 0.25, -0.75], channelCount: 2)
                == [0.5, 0.5, 0, -0.25])
    }

    @Test("Mono is unchanged; a trailing partial frame is dropped; six channels average")
    func otherLayouts() {
        #expect(Downmix.mono(interleaved: [0.1, 0.2, 0.3], channelCount: 1) == [0.1, 0.2, 0.3])
        #expect(Downmix.mono(interleaved: [1, 1, 0.5], channelCount: 2) == [1])
        #expect(Downmix.mono(interleaved: [0.6, 0.6, 0.6, 0, 0, 0], channelCount: 6) == [0.3])
        #expect(Downmix.mono(interleaved: [], channelCount: 2).isEmpty)
    }

    @Test("Full-scale opposite channels stay within [-1, 1]")
    func staysInRange() {
        let mixed = Downmix.mono(interleaved: [1, 1, -1, -1, 1, -1], channelCount: 2)
        #expect(mixed == [1, -1, 0])
    }

    @Test("Planar channels average frame by frame; one channel passes through; none gives []")
    func planar() {
        #expect(Downmix.mono(planar: [[1, 0.5, -1], [0, 0.5, 1]]) == [0.5, 0.5, 0])
        #expect(Downmix.mono(planar: [[0.25, -0.25]]) == [0.25, -0.25])
        #expect(Downmix.mono(planar: []).isEmpty)
        #expect(Downmix.mono(planar: [[0.5, 0.5, 0.5], [0.5]]) == [0.5])
    }

    @Test("Planar and interleaved forms of the same audio mix identically")
    func planarMatchesInterleaved() {
        let left = AudioTestFiles.sine(hz: 300, seconds: 0.01, sampleRate: 16_000)
        let right = AudioTestFiles.sine(hz: 700, seconds: 0.01, sampleRate: 16_000, amplitude: 0.3)
        let interleaved = zip(left, right).flatMap { [$0, $1] }
        #expect(Downmix.mono(planar: [left, right]) == Downmix.mono(interleaved: interleaved, channelCount: 2))
    }
}
