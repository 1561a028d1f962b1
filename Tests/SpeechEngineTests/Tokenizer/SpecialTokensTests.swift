import Foundation
import Testing
@testable import SpeechEngine

@Suite struct SpecialTokensTests {
    @Test func multilingualIds() {
        let special = SpecialTokens(isMultilingual: true)
        #expect(special.endOfText == 50257)
        #expect(special.startOfTranscript == 50258)
        #expect(special.language("en") == 50259)
        #expect(special.language("zh") == 50260)
        #expect(special.language("su") == 50357)
        #expect(special.translate == 50358)
        #expect(special.transcribe == 50359)
        #expect(special.startOfLanguageModel == 50360)
        #expect(special.startOfPrevious == 50361)
        #expect(special.noSpeech == 50362)
        #expect(special.noTimestamps == 50363)
        #expect(special.timestampBegin == 50364)
        #expect(special.timestampEnd == 51864)
        #expect(special.vocabularySize == 51865)
        #expect(special.languageTokens.count == 99)
    }

    @Test func englishOnlyIdsAreShiftedByOne() {
        let special = SpecialTokens(isMultilingual: false)
        #expect(special.endOfText == 50256)
        #expect(special.startOfTranscript == 50257)
        #expect(special.language("en") == 50258)
        #expect(special.language("de") == nil)
        #expect(special.translate == 50357)
        #expect(special.transcribe == 50358)
        #expect(special.startOfPrevious == 50360)
        #expect(special.noSpeech == 50361)
        #expect(special.noTimestamps == 50362)
        #expect(special.timestampBegin == 50363)
        #expect(special.languageTokens == [50258])
    }

    @Test func languageLookupsRoundTrip() {
        let special = SpecialTokens(isMultilingual: true)
        for code in WhisperLanguages.codes {
            let token = special.language(code)
            #expect(token != nil)
            #expect(special.languageCode(forToken: token!) == code)
        }
        #expect(special.language("xx") == nil)
        #expect(special.language("yue") == nil)
        #expect(special.languageCode(forToken: special.transcribe) == nil)
        #expect(special.languageCode(forToken: special.startOfTranscript) == nil)
        let english = SpecialTokens(isMultilingual: false)
        #expect(english.languageCode(forToken: 50258) == "en")
        #expect(english.languageCode(forToken: 50259) == nil)
    }

    @Test func timestamps() {
        let special = SpecialTokens(isMultilingual: true)
        #expect(special.seconds(ofTimestamp: 50364) == 0)
        #expect(special.seconds(ofTimestamp: 50364 + 1500) == 30)
        #expect(special.seconds(ofTimestamp: 50363) == nil)
        #expect(special.timestamp(atSeconds: 1.5) == 50364 + 75)
        #expect(special.timestamp(atSeconds: 99) == special.timestampEnd)
        #expect(special.timestamp(atSeconds: -1) == special.timestampBegin)
        #expect(special.isText(50256) && !special.isText(50257))
    }

    /// The ids agree with the `added_tokens` each installed tokenizer.json declares.
    @Test(arguments: ModelName.allCases)
    func agreeWithTheInstalledTokenizerFile(_ model: ModelName) throws {
        let file = try AssetStore.default.requireInstalled(model).appendingPathComponent("tokenizer.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let added = try #require(json["added_tokens"] as? [[String: Any]])
        let special = SpecialTokens(isMultilingual: model.isMultilingual)
        var checked = 0
        for entry in added {
            guard let id = entry["id"] as? Int, let content = entry["content"] as? String else { continue }
            // The English-only file spells Hebrew with its old code "iw";
            // English-only models never emit language tokens but <|en|>.
            let expected = content == "<|iw|>" && !model.isMultilingual ? "<|he|>" : content
            #expect(special.text(of: id) == expected, "id \(id)")
            checked += 1
        }
        #expect(checked >= 107)
    }
}
