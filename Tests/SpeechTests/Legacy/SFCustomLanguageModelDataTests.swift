import Foundation
import TestSupport
import Testing
@testable import Speech

/// The training-data builder: result builders, templates, pronunciations,
/// export, equality and coding. No model.
@Suite struct SFCustomLanguageModelDataTests {
    private typealias Data_ = SFCustomLanguageModelData

    /// Exports `data` and reads the file back.
    private func exported(_ data: SFCustomLanguageModelData) async throws -> CustomLanguageModelFile {
        let folder = try Fixtures.temporaryDirectory("clm-data")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("nested/CustomLMData.bin")
        try await data.export(to: url)
        return try CustomLanguageModelFile.readTrainingData(at: url)
    }

    private func counts(_ list: [CustomLanguageModelFile.PhraseCount]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: list.map { ($0.phrase, $0.count) })
    }

    @Test func builderCollectsPhrasesTermsTemplatesAndControlFlow() async throws {
        let includeExtra = true
        let data = Data_(locale: Locale(identifier: "en_US"), identifier: "com.example.chess", version: "1.0") {
            Data_.PhraseCount(phrase: "Play the Albin counter gambit", count: 10)
            Data_.CustomPronunciation(grapheme: "Winawer", phonemes: ["w I n aU @r"])
            Data_.PhraseCountsFromTemplates(classes: ["piece": ["pawn", "rook"], "rank": ["1", "2", "3"]]) {
                Data_.TemplatePhraseCountGenerator.Template("<piece> to <rank>", count: 12)
            }
            if includeExtra {
                Data_.PhraseCount(phrase: "Play the Winawer variation", count: 4)
            } else {
                Data_.PhraseCount(phrase: "never", count: 1)
            }
            for opening in ["Sicilian", "French"] {
                Data_.PhraseCount(phrase: "Play the \(opening)", count: 2)
            }
        }
        let file = try await exported(data)
        #expect(file.locale == "en_US" && file.identifier == "com.example.chess" && file.version == "1.0")
        #expect(file.format == CustomLanguageModelFile.trainingFormat)
        let table = counts(file.phraseCounts)
        #expect(table["Play the Albin counter gambit"] == 10)
        #expect(table["Play the Winawer variation"] == 4)
        #expect(table["Play the Sicilian"] == 2 && table["Play the French"] == 2)
        #expect(table["never"] == nil)
        let generated = counts(file.generatedPhraseCounts)
        for piece in ["pawn", "rook"] { for rank in 1...3 { #expect(generated["\(piece) to \(rank)"] == 2) } }
        // Each value counts the samples that use it: 12 over 2 pieces, over 3 ranks.
        #expect(counts(file.templateValues) == ["pawn": 6, "rook": 6, "1": 4, "2": 4, "3": 4])
        #expect(file.customPronunciations == [.init(grapheme: "Winawer", phonemes: ["w I n aU @r"])])
        // Most frequent first.
        #expect(file.phraseCounts.first?.phrase == "Play the Albin counter gambit")
    }

    @Test func insertMethodsSumRepeatedPhrases() async throws {
        let data = Data_(locale: Locale(identifier: "en-US"), identifier: "id", version: "2")
        data.insert(phraseCount: .init(phrase: "open the   pod bay doors", count: 3))
        data.insert(phraseCount: .init(phrase: "open the pod bay doors", count: 4))
        data.insert(phraseCount: .init(phrase: "   ", count: 9))
        data.insert(phraseCount: .init(phrase: "never counted", count: 0))
        data.insert(term: .init(grapheme: "HAL", phonemes: ["h { l"]))
        let generator = Data_.TemplatePhraseCountGenerator()
        generator.define(className: "n", values: ["one", "two"])
        generator.insert(template: "door <n>", count: 2)
        data.insert(phraseCountGenerator: generator)
        data.insert(phraseCountGenerator: Data_.PhraseCountGenerator())
        let file = try await exported(data)
        #expect(counts(file.phraseCounts) == ["open the pod bay doors": 7])
        #expect(counts(file.generatedPhraseCounts) == ["door one": 1, "door two": 1])
        #expect(counts(file.templateValues) == ["one": 1, "two": 1])
        #expect(file.customPronunciations.map(\.grapheme) == ["HAL"])
    }

    @Test func templateCountsSpreadOverCombinations() async throws {
        let generator = Data_.TemplatePhraseCountGenerator()
        generator.define(className: "a", values: ["x", "y"])
        generator.define(className: "b", values: ["1", "2", "3"])
        generator.insert(template: "<a> <b>", count: 7)
        generator.insert(template: "<a>-<b> again", count: 3)
        var produced: [Data_.PhraseCount] = []
        for try await phraseCount in generator { produced.append(phraseCount) }
        // 7 over 6 combinations: the first one gets the remainder.
        #expect(Array(produced.prefix(6)) == [("x 1", 2), ("x 2", 1), ("x 3", 1), ("y 1", 1), ("y 2", 1), ("y 3", 1)]
            .map { Data_.PhraseCount(phrase: $0.0, count: $0.1) })
        // 3 samples, 6 combinations: every second combination, once each.
        #expect(produced.dropFirst(6).map(\.phrase) == ["x-1 again", "x-3 again", "y-2 again"])
        #expect(produced.dropFirst(6).allSatisfy { $0.count == 1 })
    }

    @Test func hugeTemplatesStayBoundedByTheirCount() async throws {
        let values = (0..<100).map(String.init)
        let generator = Data_.TemplatePhraseCountGenerator()
        for name in ["a", "b", "c", "d", "e"] { generator.define(className: name, values: values) }
        generator.insert(template: "<a> <b> <c> <d> <e>", count: 50)  // 10^10 combinations
        var produced: [Data_.PhraseCount] = []
        for try await phraseCount in generator { produced.append(phraseCount) }
        #expect(produced.count == 50 && Set(produced.map(\.phrase)).count == 50)
    }

    @Test func undefinedOrMalformedTemplateClassesThrowCode7() async throws {
        for (template, classes) in [("move <piece> to <square>", ["piece": ["pawn"]]),
                                    ("move <piece", ["piece": ["pawn"]]),
                                    ("move <piece>", ["piece": []])] {
            let data = Data_(locale: Locale(identifier: "en-US"), identifier: "id", version: "1") {
                Data_.PhraseCountsFromTemplates(classes: classes) {
                    Data_.TemplatePhraseCountGenerator.Template(template, count: 10)
                }
            }
            await #expect {
                try await data.export(to: FileManager.default.temporaryDirectory.appendingPathComponent("never.bin"))
            } throws: { error in
                let nsError = error as NSError
                return (error as? SFSpeechError)?.code == .undefinedTemplateClassName
                    && nsError.domain == SFSpeechErrorDomain && nsError.code == 7
            }
        }
    }

    @Test func supportedPhonemesPerLocale() {
        let english = SFCustomLanguageModelData.supportedPhonemes(locale: Locale(identifier: "en_US"))
        for symbol in ["w", "I", "n", "aU", "@r", "t", "A", "r", "k", "@", "T", "D", "{"] { #expect(english.contains(symbol)) }
        #expect(english == SFCustomLanguageModelData.supportedPhonemes(locale: Locale(identifier: "en-GB")))
        #expect(SFCustomLanguageModelData.supportedPhonemes(locale: Locale(identifier: "fr-FR")).contains("a~"))
        #expect(SFCustomLanguageModelData.supportedPhonemes(locale: Locale(identifier: "ja-JP")).isEmpty)
        let locale = Locale(identifier: "en-US")
        #expect(PhonemeInventory.unsupportedSymbols(in: "\"t A r . t @ %k aU @r", locale: locale).isEmpty)
        #expect(PhonemeInventory.unsupportedSymbols(in: "tra' ma doll", locale: locale) == ["tra'", "ma", "doll"])
        #expect(PhonemeInventory.unsupportedSymbols(in: " . ", locale: locale) == [" . "])
    }

    @Test func equalityHashingAndCodingFollowTheContent() throws {
        func make(_ count: Int) -> SFCustomLanguageModelData {
            Data_(locale: Locale(identifier: "en-US"), identifier: "id", version: "1") {
                Data_.PhraseCount(phrase: "hello", count: count)
                Data_.CustomPronunciation(grapheme: "Zorblax", phonemes: ["z O r b l { k s"])
                Data_.PhraseCountsFromTemplates(classes: ["x": ["a", "b"]]) {
                    Data_.TemplatePhraseCountGenerator.Template("say <x>", count: 4)
                }
            }
        }
        #expect(make(1) == make(1) && make(1).hashValue == make(1).hashValue)
        #expect(make(1) != make(2))
        let decoded = try JSONDecoder().decode(SFCustomLanguageModelData.self, from: JSONEncoder().encode(make(3)))
        #expect(decoded == make(3))
        #expect(decoded.locale.identifier == "en-US" && decoded.identifier == "id" && decoded.version == "1")
        #expect(Data_.PhraseCountGenerator() == Data_.PhraseCountGenerator())
        #expect(Data_.PhraseCountGenerator() != Data_.TemplatePhraseCountGenerator())
        #expect(Data_.PhraseCount(phrase: "a", count: 2).description == "PhraseCount(phrase: \"a\", count: 2)")
    }
}
