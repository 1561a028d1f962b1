import Testing
@testable import SpeechEngine

@Suite struct WhisperLanguagesTests {
    @Test func ninetyNineUniqueCodesInWhisperOrder() {
        #expect(WhisperLanguages.codes.count == 99)
        #expect(Set(WhisperLanguages.codes).count == 99)
        #expect(Array(WhisperLanguages.codes.prefix(8)) == ["en", "zh", "de", "es", "ru", "ko", "fr", "ja"])
        #expect(Array(WhisperLanguages.codes.suffix(3)) == ["ba", "jw", "su"])
    }

    @Test func everyCodeHasAName() {
        #expect(WhisperLanguages.names.count == 99)
        for code in WhisperLanguages.codes {
            #expect(WhisperLanguages.names[code]?.isEmpty == false)
        }
        #expect(WhisperLanguages.names["es"] == "Spanish")
        #expect(WhisperLanguages.names["haw"] == "Hawaiian")
        #expect(WhisperLanguages.code(forName: "japanese") == "ja")
        #expect(WhisperLanguages.code(forName: "Klingon") == nil)
    }
}
