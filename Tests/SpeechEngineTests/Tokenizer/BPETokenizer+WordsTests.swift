import Testing
@testable import SpeechEngine

@Suite struct BPETokenizerWordsTests {
    @Test func joinsSubwordsAndKeepsPunctuationApart() throws {
        let tokenizer = try TokenizerFixtures.base()
        let tokens = tokenizer.encode(" ¿Dónde está la biblioteca?")
        let words = tokenizer.splitToWords(tokens, language: "es")
        #expect(words.map(\.word) == [" ¿Dónde", " está", " la", " biblioteca", "?"])
        #expect(words.flatMap(\.tokens) == tokens)
    }

    @Test func specialTokensAreWordsOfTheirOwn() throws {
        let tokenizer = try TokenizerFixtures.base()
        let eot = tokenizer.specialTokens.endOfText
        let tokens = tokenizer.encode(" And so my fellow Americans,") + [eot]
        let words = tokenizer.splitToWords(tokens, language: "en")
        #expect(words.map(\.word) == [" And", " so", " my", " fellow", " Americans", ",", "<|endoftext|>"])
        #expect(words.last?.tokens == [eot])
    }

    @Test func groupsTokensThatSplitACharacter() throws {
        let tokenizer = try TokenizerFixtures.tinyEn()
        let tokens = tokenizer.encode(" Привет, как дела?")
        let words = tokenizer.splitToWords(tokens, language: "ru")
        #expect(words.map(\.word) == [" Привет", ",", " как", " дела", "?"])
        #expect(words.flatMap(\.tokens) == tokens)
    }

    @Test func splitsJapaneseIntoCharacters() throws {
        let tokenizer = try TokenizerFixtures.base()
        let text = "東京は日本の首都です。"
        let tokens = tokenizer.encode(text)
        let words = tokenizer.splitToWords(tokens, language: "ja")
        #expect(words.map(\.word).joined() == text)
        #expect(words.flatMap(\.tokens) == tokens)
        #expect(words.allSatisfy { !$0.word.unicodeScalars.contains("\u{FFFD}") })
        // Every character is a word of its own or shares a multi-character token.
        #expect(words.count >= tokens.count / 2)
        #expect(words.count > 4)
    }

    @Test func unicodeRunsEndAtWholeCharacters() throws {
        let tokenizer = try TokenizerFixtures.tinyEn()
        let tokens = tokenizer.encode("首都")
        #expect(tokens.count > 2)
        let runs = tokenizer.splitOnCharacters(tokens)
        #expect(runs.map(\.word) == ["首", "都"])
    }
}
