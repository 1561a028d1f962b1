import Foundation
import SpeechEngine
import TestSupport
import Testing
@testable import Speech

/// Export → prepare → request options, the cache, and typed errors. No model.
@Suite struct SFSpeechLanguageModelTests {
    private typealias Data_ = SFCustomLanguageModelData

    private struct Files {
        let folder: URL
        var asset: URL { folder.appendingPathComponent("CustomLMData.bin") }
        var configuration: SFSpeechLanguageModel.Configuration {
            .init(languageModel: folder.appendingPathComponent("LM"), vocabulary: folder.appendingPathComponent("Vocab"))
        }
        init() throws { folder = try Fixtures.temporaryDirectory("clm-prepare") }
        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    private static let chess = Data_(locale: Locale(identifier: "en_US"), identifier: "com.apple.SpokenWord", version: "1.0") {
        Data_.PhraseCount(phrase: "Play the Albin counter gambit", count: 10)
        Data_.PhraseCountsFromTemplates(classes: [
            "piece": ["pawn", "rook", "knight", "bishop", "queen", "king"],
            "royal": ["queen", "king"],
            "rank": Array(1...8).map { String($0) },
        ]) {
            Data_.TemplatePhraseCountGenerator.Template("<piece> to <royal> <piece> <rank>", count: 10_000)
        }
        Data_.CustomPronunciation(grapheme: "Winawer", phonemes: ["w I n aU @r"])
        Data_.CustomPronunciation(grapheme: "Tartakower", phonemes: ["t A r t @ k aU @r"])
        Data_.CustomPronunciation(grapheme: "Tramadol", phonemes: ["tra' ma doll"])  // not X-SAMPA: ignored
        Data_.PhraseCount(phrase: "Play the Winawer variation", count: 10)
        Data_.PhraseCount(phrase: "Play the Tartakower", count: 10)
    }

    @Test func exportThenPrepareGivesTermsThenDiversePhrases() async throws {
        let files = try Files()
        defer { files.remove() }
        try await Self.chess.export(to: files.asset)
        try await SFSpeechLanguageModel.prepareCustomLanguageModel(
            for: files.asset, clientIdentifier: "com.apple.SpokenWord", configuration: files.configuration)
        let phrases = try CustomLanguageModelFile.preparedPhrases(
            languageModel: files.configuration.languageModel, vocabulary: files.configuration.vocabulary)
        #expect(Array(phrases.prefix(2)) == ["Winawer", "Tartakower"])
        #expect(!phrases.contains("Tramadol"))
        // The templates' class values bias, their 576 expansions do not; the exact phrases do.
        for expected in ["pawn", "knight", "queen", "8", "Play the Albin counter gambit", "Play the Winawer variation",
                         "Play the Tartakower"] {
            #expect(phrases.contains(expected), "\(phrases)")
        }
        #expect(!phrases.contains { $0.hasSuffix(" 1") }, "\(phrases)")
        #expect(phrases.count <= CustomLanguageModelFile.phraseLimit)
        #expect(phrases.joined(separator: ", ").count <= CustomLanguageModelFile.characterBudget)
        #expect(Set(phrases.map { $0.lowercased() }).count == phrases.count)

        let prepared = try JSONDecoder().decode(CustomLanguageModelFile.Prepared.self,
                                                from: Data(contentsOf: files.configuration.vocabulary!))
        #expect(prepared.terms?.map(\.grapheme) == ["Winawer", "Tartakower"])
        let model = try JSONDecoder().decode(CustomLanguageModelFile.Prepared.self,
                                             from: Data(contentsOf: files.configuration.languageModel))
        #expect(model.locale == "en_US" && model.identifier == "com.apple.SpokenWord" && model.version == "1.0")
        #expect(model.phrases?.count == 3)
        // king and queen: twice among 6 pieces and once among 2 royals.
        #expect(model.values?.first?.count == 10_000 / 6 * 2 + 10_000 / 2)

        // Without a vocabulary only the phrases bias.
        let modelOnly = try CustomLanguageModelFile.preparedPhrases(languageModel: files.configuration.languageModel,
                                                                    vocabulary: nil)
        #expect(!modelOnly.contains("Winawer"))

        let request = SFSpeechURLRecognitionRequest(url: files.asset)
        request.requiresOnDeviceRecognition = true
        request.customizedLanguageModel = files.configuration
        let options = try ConfigurationMapping.streamingOptions(for: request.recognitionConfiguration(),
                                                                locale: Locale(identifier: "en-US"))
        #expect(options.transcription.phrases == phrases)
    }

    @Test func onlyUnsupportedPronunciationsIsAMalformedModel() async throws {
        let files = try Files()
        defer { files.remove() }
        let data = Data_(locale: Locale(identifier: "en-US"), identifier: "id", version: "1") {
            Data_.CustomPronunciation(grapheme: "Tramadol", phonemes: ["tra' ma doll", "T R A"])
        }
        try await data.export(to: files.asset)
        await #expect {
            try await SFSpeechLanguageModel.prepareCustomLanguageModel(for: files.asset, configuration: files.configuration)
        } throws: { error in
            let reason = (error as NSError).userInfo[NSLocalizedFailureReasonErrorKey] as? String ?? ""
            return (error as? SFSpeechError)?.code == .malformedSupplementalModel && reason.contains("@r")
        }
        // A term with no pronunciation at all is kept: only unsupported ones are ignored.
        let bare = Data_(locale: Locale(identifier: "en-US"), identifier: "id", version: "1") {
            Data_.CustomPronunciation(grapheme: "Zorblax", phonemes: [])
        }
        try await bare.export(to: files.asset)
        try await SFSpeechLanguageModel.prepareCustomLanguageModel(for: files.asset, configuration: files.configuration,
                                                                   ignoresCache: true)
        #expect(try CustomLanguageModelFile.preparedPhrases(languageModel: files.configuration.languageModel,
                                                            vocabulary: files.configuration.vocabulary) == ["Zorblax"])
    }

    @Test func cacheIsKeptUnlessIgnored() async throws {
        let files = try Files()
        defer { files.remove() }
        func write(_ phrase: String) async throws {
            try await Data_(locale: Locale(identifier: "en-US"), identifier: "id", version: "1") {
                Data_.PhraseCount(phrase: phrase, count: 1)
            }.export(to: files.asset)
            // Older than any prepared file, so the cache looks fresh.
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 0)],
                                                  ofItemAtPath: files.asset.path)
        }
        func phrases() throws -> [String] {
            try CustomLanguageModelFile.preparedPhrases(languageModel: files.configuration.languageModel,
                                                        vocabulary: files.configuration.vocabulary)
        }
        try await write("first")
        try await SFSpeechLanguageModel.prepareCustomLanguageModel(for: files.asset, clientIdentifier: "c",
                                                                   configuration: files.configuration, ignoresCache: false)
        try await write("second")
        try await SFSpeechLanguageModel.prepareCustomLanguageModel(for: files.asset, configuration: files.configuration)
        #expect(try phrases() == ["first"])
        try await SFSpeechLanguageModel.prepareCustomLanguageModel(for: files.asset, configuration: files.configuration,
                                                                   ignoresCache: true)
        #expect(try phrases() == ["second"])
    }

    @Test func completionHandlerReportsTypedErrors() async throws {
        let files = try Files()
        defer { files.remove() }
        try Data(#"{"format": "something else", "phraseCounts": [{"phrase": "a", "count": 1}]}"#.utf8).write(to: files.asset)
        let error: (any Error)? = await withCheckedContinuation { continuation in
            SFSpeechLanguageModel.prepareCustomLanguageModel(for: files.asset, clientIdentifier: "c",
                                                             configuration: files.configuration) { continuation.resume(returning: $0) }
        }
        #expect((error as? SFSpeechError)?.code == .malformedSupplementalModel)
        let missing = files.folder.appendingPathComponent("absent.bin")
        await #expect(throws: SFSpeechError(.malformedSupplementalModel)) {
            try await SFSpeechLanguageModel.prepareCustomLanguageModel(for: missing, configuration: files.configuration)
        }
        try Data("not json".utf8).write(to: files.configuration.languageModel)
        #expect(throws: SFSpeechError(.malformedSupplementalModel)) {
            try CustomLanguageModelFile.preparedPhrases(languageModel: files.configuration.languageModel, vocabulary: nil)
        }
    }

    @Test func preparedPhrasesAreBoundedAndDeduplicated() throws {
        let files = try Files()
        defer { files.remove() }
        let many = (0..<300).map { "phrase number \($0)" } + ["Phrase Number 1"]
        try JSONEncoder().encode(many).write(to: files.configuration.languageModel)
        try JSONEncoder().encode(["phrase number 2", "Zorblax"]).write(to: files.configuration.vocabulary!)
        let phrases = try CustomLanguageModelFile.preparedPhrases(languageModel: files.configuration.languageModel,
                                                                  vocabulary: files.configuration.vocabulary)
        #expect(Array(phrases.prefix(3)) == ["phrase number 2", "Zorblax", "phrase number 0"])
        #expect(!phrases.contains("Phrase Number 1") && phrases.filter { $0 == "phrase number 2" }.count == 1)
        #expect(phrases.joined(separator: ", ").count <= CustomLanguageModelFile.characterBudget)
        let long = String(repeating: "x", count: 900)
        try JSONEncoder().encode([long, "short"]).write(to: files.configuration.languageModel)
        #expect(try CustomLanguageModelFile.preparedPhrases(languageModel: files.configuration.languageModel,
                                                            vocabulary: nil) == [long])
    }

    /// Apple's inits are designated: a subclass overrides and calls them.
    private final class TaggedConfiguration: SFSpeechLanguageModel.Configuration, @unchecked Sendable {
        var tag = "plain"
        override init(languageModel: URL) {
            super.init(languageModel: languageModel)
            tag = "model"
        }
        override init(languageModel: URL, vocabulary: URL?) {
            super.init(languageModel: languageModel, vocabulary: vocabulary)
            tag = "model+vocabulary"
        }
        required init?(coder: NSCoder) { super.init(coder: coder) }
    }

    @Test func configurationInitsAreDesignated() {
        let model = URL(fileURLWithPath: "/tmp/LM")
        #expect(TaggedConfiguration(languageModel: model).tag == "model")
        let both = TaggedConfiguration(languageModel: model, vocabulary: URL(fileURLWithPath: "/tmp/Vocab"))
        #expect(both.tag == "model+vocabulary" && both.vocabulary?.lastPathComponent == "Vocab")
        #expect(both == SFSpeechLanguageModel.Configuration(languageModel: model, vocabulary: both.vocabulary))
    }
}
