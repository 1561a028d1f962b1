import Foundation
import SpeechEngine
import Testing
import TestSupport
@testable import Speech

/// `DictationTranscriber`: presets and the options dictation adds.
@Suite("DictationTranscriber (scripted sessions)")
struct DictationTranscriberTests {
    @Test("the presets have the documented options")
    func presets() {
        typealias P = DictationTranscriber.Preset
        let table: [(P, shortForm: Bool, volatile: Bool, frequent: Bool, timeRange: Bool, punctuation: Bool)] = [
            (.phrase, true, false, false, false, false),
            (.shortDictation, true, false, false, false, true),
            (.progressiveShortDictation, true, true, true, false, true),
            (.longDictation, false, false, false, false, true),
            (.progressiveLongDictation, false, true, false, false, true),
            (.timeIndexedLongDictation, false, false, false, true, true),
        ]
        for row in table {
            #expect(row.0.contentHints.contains(.shortForm) == row.shortForm)
            #expect(row.0.reportingOptions.contains(.volatileResults) == row.volatile)
            #expect(row.0.reportingOptions.contains(.frequentFinalization) == row.frequent)
            #expect(row.0.attributeOptions.contains(.audioTimeRange) == row.timeRange)
            #expect(row.0.transcriptionOptions.contains(.punctuation) == row.punctuation)
        }
    }

    @Test("punctuation and frequent finalization reach the engine")
    func options() async throws {
        let environment = SpeechTestEnvironment([])
        try await withModernEnvironment(environment) {
            let analyzer = SpeechAnalyzer(modules: [
                DictationTranscriber(locale: Locale(identifier: "es-MX"), preset: .phrase),
                DictationTranscriber(locale: englishUS, preset: .progressiveShortDictation),
            ])
            try await analyzer.prepareToAnalyze(in: nil)
            let options = environment.requestedOptions
            #expect(options.count == 2)
            #expect(options[0].transcription.language == "es")
            #expect(options[0].transcription.addsPunctuation == false)
            #expect(options[0].reportsVolatileResults == false)
            #expect(options[1].transcription.addsPunctuation)
            #expect(options[1].transcription.beamSize == 1)
            #expect(options[1].reportsVolatileResults)
            await analyzer.cancelAndFinishNow()
        }
    }

    @Test("spoken emoji names become emoji with the emoji option")
    func emoji() async throws {
        let session = ScriptedBackend(steps: [], onFinish: [
            .final(RecognizedSpan(startSeconds: 0, endSeconds: 1, text: "See you soon smiling emoji")),
            .finished,
        ])
        let environment = SpeechTestEnvironment([session])
        try await withModernEnvironment(environment) {
            let dictation = DictationTranscriber(locale: englishUS, contentHints: [],
                                                 transcriptionOptions: [.punctuation, .emoji],
                                                 reportingOptions: [], attributeOptions: [])
            let results = collect(dictation.results)
            let feed = environment.inputFeed()
            feed.yield(seconds: 1)
            feed.end()
            let analyzer = SpeechAnalyzer(modules: [dictation])
            let last = try #require(try await analyzer.analyzeSequence(feed.stream))
            try await analyzer.finalizeAndFinish(through: last)
            let texts = try #require(await value(of: results)).elements.map { String($0.text.characters) }
            #expect(texts == ["See you soon 🙂"])
        }
        #expect(TranscriptTextOptions.replacingEmojiNames(in: "a heart emoji and a thumbs up emoji.")
                == "a ❤️ and a 👍.")
        #expect(TranscriptTextOptions.replacingEmojiNames(in: "heartemoji") == "heartemoji")
    }

    @Test("a customized language model's phrases bias the engine; a malformed one fails the analysis")
    func customizedLanguage() async throws {
        let folder = try Fixtures.temporaryDirectory("modern-lm")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("model.json")
        try JSONEncoder().encode(["Quilter", "gospel"]).write(to: model)
        let environment = SpeechTestEnvironment([])
        try await withModernEnvironment(environment) {
            let configuration = SFSpeechLanguageModel.Configuration(languageModel: model)
            let dictation = DictationTranscriber(
                locale: englishUS, contentHints: [.customizedLanguage(modelConfiguration: configuration), .farField],
                transcriptionOptions: [.punctuation], reportingOptions: [], attributeOptions: [])
            let analyzer = SpeechAnalyzer(modules: [dictation])
            let context = AnalysisContext()
            context.contextualStrings[.general] = ["apostle"]
            try await analyzer.setContext(context)
            try await analyzer.prepareToAnalyze(in: nil)
            #expect(environment.requestedOptions.first?.transcription.phrases == ["apostle", "Quilter", "gospel"])
            await analyzer.cancelAndFinishNow()

            let missing = SFSpeechLanguageModel.Configuration(languageModel: folder.appendingPathComponent("none"))
            let broken = SpeechAnalyzer(modules: [DictationTranscriber(
                locale: englishUS, contentHints: [.customizedLanguage(modelConfiguration: missing)],
                transcriptionOptions: [], reportingOptions: [], attributeOptions: [])])
            await #expect(throws: SFSpeechError(.malformedSupplementalModel)) { try await broken.prepareToAnalyze(in: nil) }
        }
        #expect(DictationTranscriber.ContentHint.shortForm != .farField)
    }
}
