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

    @Test("A fitted encoder window holds the audio and its margin (5.12 s unless set), in whole seconds, at most 30 s")
    func fittedEncoderWindow() {
        var options = TranscriptionOptions()
        #expect(options.encoderWindowFrames(contentFrames: 500) == 3_000, "whole windows unless asked")
        options.fitsEncoderWindowToAudio = true
        #expect(options.encoderWindowFrames(contentFrames: 500) == 1_100)   // 5 s + 5.12 s -> 11 s
        #expect(options.encoderWindowFrames(contentFrames: 44) == 600)
        #expect(options.encoderWindowFrames(contentFrames: 2_400) == 3_000)
        #expect(options.encoderWindowFrames(contentFrames: 9_000) == 3_000)
        for content in stride(from: 0, through: 3_000, by: 7) {
            let frames = options.encoderWindowFrames(contentFrames: content)
            #expect(frames % 2 == 0 && frames >= min(3_000, content + options.fittedWindowMarginFrames))
        }
        options.fittedWindowMarginFrames = 1_500
        #expect(options.encoderWindowFrames(contentFrames: 500) == 2_000)   // 5 s + 15 s
        #expect(options.encoderWindowFrames(contentFrames: 1_501) == 3_000)
        for content in stride(from: 0, through: 3_000, by: 7) {
            #expect(options.encoderWindowFrames(contentFrames: content) >= min(3_000, content + 1_500))
        }
    }

    @Test("A fitted window samples at most 16 + 8 tokens per second of window; a whole one half the text context")
    func fittedWindowSampleLimit() {
        #expect(TranscriptionSession.sampleLimit(textContext: 448, fittedPositions: nil) == 224)
        #expect(TranscriptionSession.sampleLimit(textContext: 448, fittedPositions: 300) == 64)    // a 6 s window
        #expect(TranscriptionSession.sampleLimit(textContext: 448, fittedPositions: 1_500) == 224) // 30 s: Whisper's cap
    }
}

