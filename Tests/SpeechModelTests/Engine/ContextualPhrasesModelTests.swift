import Foundation
import SpeechEngine
import SpeechEvaluation
import TestSupport
import Testing

/// A thousand contextual phrases on a real clip: the engine uses the first
/// hundred, keeps the glossary within its prompt budget and boosts each
/// token once, so the audio's words stay and decoding takes as long as
/// with a few phrases (it took 160 s and wrote "phrase number phrase
/// number …" before the caps).
@Suite("Contextual phrases (whisper-base)", .serialized, .enabled(if: Models.testsEnabled, Models.disabledReason))
struct ContextualPhrasesModelTests {
    let scorer = TranscriptScorer()
    static let thousand = (1...1_000).map { "phrase number \($0)" }

    func entry() throws -> ManifestEntry {
        try #require(try CorpusManifest.entries(set: "librispeech-dev-clean").first { $0.id == "1272-128104-0000" })
    }

    func errors(_ transcript: Transcript, _ entry: ManifestEntry) -> Int {
        scorer.score(reference: entry.referenceText, hypothesis: transcript.text, languageTag: entry.languageTag)
            .counts.errorCount
    }

    @Test func aThousandUnrelatedPhrasesKeepTheTranscript() throws {
        let entry = try entry()
        let transcriber = try Models.transcriber()
        let plain = try transcriber.transcribe(file: entry.audioURL)
        var options = TranscriptionOptions()
        options.phrases = Self.thousand
        let biased = try transcriber.transcribe(file: entry.audioURL, options: options)
        #expect(!biased.text.lowercased().contains("phrase"), "\(biased.text)")
        #expect(!biased.text.lowercased().contains("number"), "\(biased.text)")
        #expect(errors(biased, entry) <= errors(plain, entry) + 1, "\(biased.text) vs \(plain.text)")
        #expect(errors(biased, entry) <= 2, "\(biased.text)")
    }

    /// The phrase that matters, first among a thousand, still counts.
    @Test func theFirstOfAThousandPhrasesStillHelps() throws {
        let entry = try entry()
        var options = TranscriptionOptions()
        options.phrases = ["Mister Quilter"] + Self.thousand
        let biased = try Models.transcriber().transcribe(file: entry.audioURL, options: options)
        #expect(biased.text.contains("Quilter"), "\(biased.text)")
        #expect(errors(biased, entry) <= 2, "\(biased.text)")
    }

    /// The same thousand phrases through greedy decoding and tiny.en.
    @Test func aThousandPhrasesOnTinyEnGreedy() throws {
        let entry = try entry()
        let transcriber = try Models.transcriber(.whisperTinyEn)
        var options = TranscriptionOptions.greedy
        options.language = "en"
        let plain = try transcriber.transcribe(file: entry.audioURL, options: options)
        options.phrases = Self.thousand
        let biased = try transcriber.transcribe(file: entry.audioURL, options: options)
        #expect(!biased.text.lowercased().contains("phrase"), "\(biased.text)")
        #expect(errors(biased, entry) <= errors(plain, entry) + 1, "\(biased.text) vs \(plain.text)")
    }
}
