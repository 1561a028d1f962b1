import Foundation
import SpeechMigration
import Testing

@Suite struct RecognitionOutcomeTests {
    @Test("repeated events collapse; times and confidence are rounded for stable goldens")
    func normalisedValues() {
        let outcome = RecognitionOutcome(
            path: .legacy, transcript: "hi",
            words: [TimedWord(text: "hi", startSeconds: 0.123456, durationSeconds: 0.2000001, confidence: 0.987654)],
            events: ["detectedSpeech", "hypothesis", "hypothesis", "hypothesis", "finalResult"])
        #expect(outcome.events == ["detectedSpeech", "hypothesis", "finalResult"])
        #expect(outcome.words[0].startSeconds == 0.123 && outcome.words[0].durationSeconds == 0.2)
        #expect(outcome.words[0].confidence == 0.9877)
    }

    @Test("JSON round-trips byte-identically")
    func roundTrip() throws {
        let outcome = OutcomeFixtures.outcome(.modernOverLegacy, "one two three")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outcome-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("golden.json")
        try outcome.jsonData().write(to: url)
        let read = try RecognitionOutcome(contentsOf: url)
        #expect(read == outcome)
        #expect(try read.jsonData() == outcome.jsonData())
    }

    @Test("an error's message is for people: goldens keep the domain and code only")
    func errorMessagesStayOutOfGoldens() throws {
        let outcome = RecognitionOutcome(path: .legacy, transcript: "", words: [], events: ["error"],
                                         error: "kLSRErrorDomain 300", errorDescription: "Failed to initialize recognizer.")
        let json = String(decoding: try outcome.jsonData(), as: UTF8.self)
        #expect(json.contains("kLSRErrorDomain 300") && !json.contains("initialize"))
        let read = try JSONDecoder().decode(RecognitionOutcome.self, from: Data(json.utf8))
        #expect(read.error == outcome.error && read.errorDescription == nil)
    }

    @Test("a missing or malformed golden is a typed error that says how to record one")
    func badGolden() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/golden.json")
        let error = try #require(throws: MigrationError.self) { try RecognitionOutcome(contentsOf: missing) }
        #expect(error.code == .invalidSuite && error.message.contains("record-golden"))
    }

    @Test("path lists parse; unknown names are rejected with the valid ones")
    func pathList() throws {
        #expect(try RecognitionPath.parseList("legacy, modern-over-legacy") == [.legacy, .modernOverLegacy])
        let error = try #require(throws: MigrationError.self) { try RecognitionPath.parseList("legacy,new") }
        #expect(error.message.contains("legacy-over-modern"))
    }
}
