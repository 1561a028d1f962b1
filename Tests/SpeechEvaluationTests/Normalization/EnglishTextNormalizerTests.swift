import Testing
@testable import SpeechEvaluation

@Suite struct EnglishTextNormalizerTests {
    let normalizer = EnglishTextNormalizer()

    @Test func lowercasesAndRemovesPunctuation() {
        #expect(normalizer.normalize("And so, my fellow Americans: ask not!") == "and so my fellow americans ask not")
    }

    @Test func removesBracketedAndParenthesisedAnnotations() {
        #expect(normalizer.normalize("[laughter] montreal [laughter] forced <unk> aligner (coughs)")
                == "montreal forced aligner")
        #expect(normalizer.normalize("i'm gonna cough here <VOCNOISE> yeah") == "i am going to cough here yeah")
    }

    @Test func dropsHesitations() {
        #expect(normalizer.normalize("montreal forced uh um uh hm hmm um forced aligner")
                == "montreal forced hm forced aligner")
        #expect(normalizer.normalize("Um, well, mhm.") == "well")
    }

    @Test func expandsContractions() {
        #expect(normalizer.normalize("I won't, you can't, let's go") == "i will not you can not let us go")
        #expect(normalizer.normalize("they're here and we've seen it, I'd say I'll go") ==
                "they are here and we have seen it i would say i will go")
        #expect(normalizer.normalize("Don't") == "do not")
        #expect(normalizer.normalize("she's been there") == "she has been there")
        #expect(normalizer.normalize("he'd been there") == "he had been there")
        #expect(normalizer.normalize("it's fine") == "it is fine")
        #expect(normalizer.normalize("wouldn't've") == "would not have")
    }

    @Test func joinsApostrophesDetachedBySpaces() {
        #expect(normalizer.normalize("I 'm here") == "i am here")
    }

    @Test func curlyApostrophesCountAsApostrophes() {
        #expect(normalizer.normalize("I\u{2019}m glad") == "i am glad")
    }

    @Test func expandsTitles() {
        #expect(normalizer.normalize("Mr. Quilter and Mrs Smith met Dr. Who") ==
                "mister quilter and missus smith met doctor who")
        #expect(normalizer.normalize("MISTER QUILTER") == "mister quilter")
    }

    @Test func removesDiacritics() {
        #expect(normalizer.normalize("Café naïve façade") == "cafe naive facade")
        #expect(normalizer.normalize("Encyclopædia") == "encyclopaedia")
    }

    @Test func keepsNumericSymbolsOnlyNextToNumbers() {
        #expect(normalizer.normalize("It cost $5.50, about 10% more.") == "it cost $5.50 about 10% more")
        #expect(normalizer.normalize("the end. $ %") == "the end")
    }

    @Test func removesCommasBetweenDigits() {
        #expect(normalizer.normalize("1,000,000 people") == "1000000 people")
    }

    @Test func hyphenatedWordsSplit() {
        #expect(normalizer.normalize("well-known up-to-date") == "well known up to date")
    }

    @Test func spelledAndDigitNumbersAgree() {
        #expect(normalizer.normalize("forty-two line Bible of about fourteen fifty-five")
                == normalizer.normalize("42 line bible of about 1455"))
        #expect(normalizer.normalize("IN EIGHTEEN THIRTEEN") == "in 1813")
        #expect(normalizer.normalize("go forward ten meters") == "go forward 10 meters")
    }

    @Test func britishSpellingsBecomeAmerican() {
        #expect(normalizer.normalize("The colour of the theatre") == "the color of the theater")
    }

    @Test func emptyAndAnnotationOnlyTextsNormaliseToEmpty() {
        #expect(normalizer.normalize("") == "")
        #expect(normalizer.normalize("  [laughter]  ... ") == "")
    }

    @Test func isIdempotent() {
        let samples = ["Mr. Quilter's 25 colours", "Ten of clubs, five five!", "I'm 3.5% sure",
                       "the twentieth time that evening", "God bless 'em, I hope I'll go on"]
        for sample in samples {
            let once = normalizer.normalize(sample)
            #expect(normalizer.normalize(once) == once, "\(sample)")
        }
    }
}
