import Foundation
import SpeechEngine
import Testing
@testable import SpeechCLI

@Suite struct TranscriptFormatterTests {
    let one = [TranscriptFormatter.FileResult(path: "jfk.wav", transcript: sampleTranscript())]

    @Test func plainText() throws {
        let text = try TranscriptFormatter(format: .text, includesWords: false).render(one)
        #expect(text == "And so   ask.\n")
    }

    @Test func textWithWords() throws {
        let text = try TranscriptFormatter(format: .text, includesWords: true).render(one)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0] == "[   0.00 →    0.32] And (0.81)")
        #expect(lines[2] == "[3661.25 → 3661.50] ask (0.50)")
    }

    @Test func severalFilesAreLabelled() throws {
        let two = one + [TranscriptFormatter.FileResult(path: "b.wav", transcript: sampleTranscript())]
        let text = try TranscriptFormatter(format: .text, includesWords: false).render(two)
        #expect(text.hasPrefix("==> jfk.wav <==\n"))
        #expect(text.contains("==> b.wav <==\n"))
    }

    @Test func jsonIsValidAndComplete() throws {
        let json = try TranscriptFormatter(format: .json, includesWords: true).render(one)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["file"] as? String == "jfk.wav")
        #expect(object["language"] as? String == "en")
        #expect(object["text"] as? String == "And so   ask.")
        let segments = try #require(object["segments"] as? [[String: Any]])
        #expect(segments.count == 3)
        #expect(segments[2]["averageLogProbability"] as? String == "-inf")
        let words = try #require(segments[0]["words"] as? [[String: Any]])
        #expect(words.first?["word"] as? String == "And")
        #expect(words.first?["probability"] as? Double == 0.81)
    }

    @Test func jsonOmitsWordsUnlessAsked() throws {
        let json = try TranscriptFormatter(format: .json, includesWords: false).render(one)
        #expect(!json.contains("\"words\""))
    }

    @Test func jsonForSeveralFilesIsAnArray() throws {
        let two = one + one
        let json = try TranscriptFormatter(format: .json, includesWords: false).render(two)
        let array = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any]
        #expect(array?.count == 2)
    }
}
