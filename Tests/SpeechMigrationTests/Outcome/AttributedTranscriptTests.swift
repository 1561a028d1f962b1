import CoreMedia
import Foundation
import Speech
import SpeechMigration
import Testing

@Suite struct AttributedTranscriptTests {
    private func word(_ text: String, _ start: Double, _ confidence: Double) -> AttributedString {
        var run = AttributedString(text)
        run.audioTimeRange = CMTimeRange(start: CMTime(seconds: start, preferredTimescale: 1000),
                                         duration: CMTime(seconds: 0.3, preferredTimescale: 1000))
        run.transcriptionConfidence = confidence
        return run
    }

    @Test("timed runs become words; punctuation joins the word before it or is removed")
    func words() {
        let text = word(" Hello", 0, 0.9) + AttributedString(",") + word(" world", 0.4, 0.8) + AttributedString(".")
        let kept = AttributedTranscript.words(in: text)
        #expect(kept.map(\.text) == ["Hello,", "world."])
        #expect(kept.map(\.startSeconds) == [0, 0.4])
        #expect(kept.map(\.confidence) == [0.9, 0.8])
        let removed = AttributedTranscript.words(in: text, keepingPunctuation: false)
        #expect(removed.map(\.text) == ["Hello", "world"])
        #expect(AttributedTranscript.plainText(of: text, keepingPunctuation: false) == "Hello world")
    }

    @Test("apostrophes inside words survive punctuation removal")
    func apostrophes() {
        #expect(AttributedTranscript.plainText(of: AttributedString("It's 'fine', isn't it?"), keepingPunctuation: false)
                == "It's fine isn't it")
    }
}
