import Foundation
import Speech
import SpeechMigration
import Testing

/// Legacy result objects built through their public coder initializer.
@Suite struct LegacyResultFactoryTests {
    @Test("segments point into the formatted string and keep their timing and confidence")
    func transcriptionSegments() throws {
        let words = [
            LegacyResultFactory.Word(text: "go", timestamp: 0.5, duration: 0.25, confidence: 0.9),
            LegacyResultFactory.Word(text: "forward", timestamp: 0.8, duration: 0.4, confidence: 0.75,
                                     alternatives: ["four word"]),
        ]
        let transcription = try LegacyResultFactory.transcription(words: words)
        #expect(transcription.formattedString == "go forward")
        #expect(transcription.segments.count == 2)
        let second = transcription.segments[1]
        #expect(second.substring == "forward")
        #expect((transcription.formattedString as NSString).substring(with: second.substringRange) == "forward")
        #expect(second.timestamp == 0.8 && second.duration == 0.4 && second.confidence == 0.75)
        #expect(second.alternativeSubstrings == ["four word"])
    }

    @Test("a result keeps its transcriptions in order and its finality")
    func result() throws {
        let best = try LegacyResultFactory.transcription(words: [.init(text: "ten", timestamp: 0, duration: 0, confidence: 0)])
        let other = try LegacyResultFactory.transcription(words: [.init(text: "10", timestamp: 0, duration: 0, confidence: 0)])
        let result = try LegacyResultFactory.result(transcriptions: [best, other], isFinal: true)
        #expect(result.isFinal)
        #expect(result.transcriptions.map(\.formattedString) == ["ten", "10"])
        #expect(result.bestTranscription.formattedString == "ten")
        #expect(result.speechRecognitionMetadata == nil)
    }

    @Test("an empty transcription list is a typed error, not a crash")
    func emptyResult() {
        #expect(throws: MigrationError.self) { try LegacyResultFactory.result(transcriptions: [], isFinal: false) }
    }

    @Test("a formatted string with punctuation still locates each word")
    func punctuatedString() throws {
        let transcription = try LegacyResultFactory.transcription(
            words: [.init(text: "Hello,", timestamp: 0, duration: 0.3, confidence: 0.5),
                    .init(text: "world.", timestamp: 0.3, duration: 0.3, confidence: 0.5)],
            formattedString: "Hello, world.")
        #expect(transcription.segments.map(\.substringRange.location) == [0, 7])
    }
}
