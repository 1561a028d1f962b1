import Testing
@testable import SpeechEvaluation

@Suite struct BasicTextNormalizerTests {
    let normalizer = BasicTextNormalizer()

    @Test func keepsDiacriticsAndLowercases() {
        #expect(normalizer.normalize("Vår husläkare börjar i och för sig bli gammal och skröplig, men han har ju ett sådant trevligt sätt!")
                == "vår husläkare börjar i och för sig bli gammal och skröplig men han har ju ett sådant trevligt sätt")
        #expect(normalizer.normalize("La SUSTITUCIÓN de una cuñada") == "la sustitución de una cuñada")
    }

    @Test func removesPunctuationAndAnnotations() {
        #expect(normalizer.normalize("Testar en, två [brus] tre (paus) fyra.") == "testar en två tre fyra")
    }

    @Test func fullWidthFormsFoldToASCIIByNFKC() {
        #expect(normalizer.normalize("ＡＢＣ１２３") == "abc123")
    }

    @Test func removesCJKPunctuation() {
        #expect(normalizer.normalize("真っ昼間なのに、電球がともっていた。") == "真っ昼間なのに 電球がともっていた")
    }

    @Test func doesNotExpandEnglishContractions() {
        #expect(normalizer.normalize("Don't") == "don t")
    }
}
