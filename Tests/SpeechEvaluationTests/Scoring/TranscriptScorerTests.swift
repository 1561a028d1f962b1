import Testing
@testable import SpeechEvaluation

@Suite struct TranscriptScorerTests {
    let scorer = TranscriptScorer()

    @Test func styleDifferencesAreNotErrorsInEnglish() {
        let score = scorer.score(
            reference: "MISTER QUILTER IS THE APOSTLE OF THE MIDDLE CLASSES AND WE ARE GLAD TO WELCOME HIS GOSPEL",
            hypothesis: " Mr. Quilter is the apostle of the middle classes, and we are glad to welcome his gospel.",
            languageTag: "en-US")
        #expect(score.unit == .words)
        #expect(score.counts == ErrorCounts(referenceCount: 17))
    }

    @Test func annotationsInReferencesAreNotCounted() {
        let score = scorer.score(reference: "[laughter] montreal [laughter] forced [laughter] aligner [laughter]",
                                 hypothesis: "Montreal forced aligner.", languageTag: "en")
        #expect(score.counts.errorCount == 0)
        #expect(score.counts.referenceCount == 3)
    }

    @Test func realErrorsAreCounted() {
        let score = scorer.score(reference: "go forward ten meters", hypothesis: "Go forward two meters.",
                                 languageTag: "en-US")
        #expect(score.counts.substitutions == 1)
        #expect(score.counts.referenceCount == 4)
    }

    @Test func japaneseIsScoredByCharactersWithoutSpaces() {
        let score = scorer.score(reference: "真っ昼間なのに", hypothesis: "真っ 昼間なのに。", languageTag: "ja")
        #expect(score.unit == .characters)
        #expect(score.counts == ErrorCounts(referenceCount: 7))
        let wrong = scorer.score(reference: "广州市房地产", hypothesis: "广州市房产", languageTag: "zh-CN")
        #expect(wrong.counts.deletions == 1)
        #expect(wrong.counts.referenceCount == 6)
    }

    @Test func otherLanguagesUseTheBasicNormalizer() {
        let score = scorer.score(reference: "Testar en två tre fyra fem sex sju åtta.",
                                 hypothesis: "testar en, två, tre, fyra, fem, sex, sju, åtta",
                                 languageTag: "sv")
        #expect(score.counts.errorCount == 0)
        #expect(scorer.normalizer(for: "sv") is BasicTextNormalizer)
        #expect(scorer.normalizer(for: "en-GB") is EnglishTextNormalizer)
    }

    @Test func languageTags() {
        #expect(LanguageTag.baseLanguage(of: "en-US") == "en")
        #expect(LanguageTag.baseLanguage(of: "zh_Hans_CN") == "zh")
        #expect(LanguageTag.baseLanguage(of: "SV") == "sv")
        #expect(LanguageTag.scoringUnit(for: "ko-KR") == .characters)
        #expect(LanguageTag.scoringUnit(for: "ru") == .words)
    }
}
