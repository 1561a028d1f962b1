import Foundation
import SpeechEngine
import TestSupport
import Testing

/// Golden-transcript tests: the real model on real speech.
@Suite("Transcriber (whisper-base)", .serialized)
struct TranscriberTests {
    let jfk = Fixtures.corpusClip("audio/jfk/jfk_openai_whisper.wav")

    @Test func jfkTranscribesExactlyWithWordTimesAndConfidences() throws {
        let transcriber = try Models.transcriber()
        let transcript = try transcriber.transcribe(file: jfk, options: TranscriptionOptions())
        #expect(transcript.text == "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.")
        #expect(transcript.language == "en")
        let words = transcript.words
        #expect(words.count == 22)
        for word in words {
            #expect(word.startSeconds >= 0 && word.endSeconds <= transcript.durationSeconds + 0.01)
            #expect(word.startSeconds <= word.endSeconds)
            #expect(word.probability > 0 && word.probability <= 1)
        }
        // Words come in order.
        for (a, b) in zip(words, words.dropFirst()) { #expect(a.startSeconds <= b.startSeconds) }
    }

    @Test func greedyDecodingGivesTheSameJFKText() throws {
        let transcript = try Models.transcriber().transcribe(file: jfk, options: .greedy)
        #expect(transcript.text == "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.")
    }
}
