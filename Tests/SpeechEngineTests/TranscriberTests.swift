import Testing
@testable import SpeechEngine

@Suite("Transcriber windows")
struct TranscriberTests {
    /// 2 bands × 6 frames: 4 frames of "audio" (values 1...), then 2 of silence floor (-1).
    private let mel = MelSpectrogram(melCount: 2, frameCount: 6, values: [1, 2, 3, 4, -1, -1, 11, 12, 13, 14, -1, -1])

    @Test("A full window is decoded once, whatever the padding choice")
    func fullWindowHasOneView() {
        for padding in TranscriptionOptions.ShortWindowPadding.allCases {
            let views = Transcriber.views(of: mel, startFrame: 0, frameCount: 4, contentFrames: 4, holdsWholeInput: true,
                                          padding: padding)
            #expect(views == [[1, 2, 3, 4, 11, 12, 13, 14]], "\(padding)")
        }
    }

    @Test("A short clip is padded with silence, zeros, or both (silence first)")
    func shortClipViews() {
        let silence: [Float] = [1, 2, 3, 4, -1, -1, 11, 12, 13, 14, -1, -1]
        let zeros: [Float] = [1, 2, 3, 4, 0, 0, 11, 12, 13, 14, 0, 0]
        let views = { Transcriber.views(of: mel, startFrame: 0, frameCount: 6, contentFrames: 4, holdsWholeInput: true, padding: $0) }
        #expect(views(.silence) == [silence])
        #expect(views(.zeros) == [zeros])
        #expect(views(.both) == [silence, zeros])
    }

    @Test("The last window of a longer recording decodes once: .both pads it with silence")
    func lastWindowOfALongRecording() {
        let views = { Transcriber.views(of: mel, startFrame: 2, frameCount: 4, contentFrames: 2, holdsWholeInput: false, padding: $0) }
        #expect(views(.both) == [[3, 4, -1, -1, 13, 14, -1, -1]])
        #expect(views(.silence) == views(.both))
        #expect(views(.zeros) == [[3, 4, 0, 0, 13, 14, 0, 0]])
    }
}
