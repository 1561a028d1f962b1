import Foundation
import Testing
@testable import SpeechEngine

/// Expected ids come from the models' tokenizer.json, cross-checked with
/// Hugging Face `tokenizers` 0.23 (`Tokenizer.from_file(...).encode(text,
/// add_special_tokens=False)`).
@Suite struct BPETokenizerTests {
    @Test func encodesKnownEnglishIdsMultilingual() throws {
        let tokenizer = try TokenizerFixtures.base()
        #expect(tokenizer.encode(" Hello") == [2425])
        #expect(tokenizer.encode("Hello world") == [15947, 1002])
        #expect(tokenizer.encode(" And so my fellow Americans, ask not what your country can do for you")
            == [400, 370, 452, 7177, 6280, 11, 1029, 406, 437, 428, 1941, 393, 360, 337, 291])
        #expect(tokenizer.encode("I'm here, isn't it?") == [40, 478, 510, 11, 1943, 380, 309, 30])
    }

    @Test func encodesKnownIdsEnglishOnly() throws {
        let tokenizer = try TokenizerFixtures.tinyEn()
        #expect(tokenizer.encode(" Hello") == [18435])
        #expect(tokenizer.encode("Hello world") == [15496, 995])
        #expect(tokenizer.encode("I'm here, isn't it?") == [40, 1101, 994, 11, 2125, 470, 340, 30])
        #expect(tokenizer.encode(" Привет, как дела?")
            == [12466, 253, 21169, 18849, 38857, 16843, 20375, 11, 12466, 118, 16142,
                31583, 12466, 112, 16843, 30143, 16142, 30])
    }

    @Test func encodesKnownNonEnglishIds() throws {
        let tokenizer = try TokenizerFixtures.base()
        #expect(tokenizer.encode(" ¿Dónde está la biblioteca?")
            == [3841, 35, 812, 16404, 3192, 635, 34344, 1370, 496, 30])
        #expect(tokenizer.encode(" 東京は日本の首都です。")
            == [220, 18413, 31375, 3065, 27311, 2972, 25444, 7182, 4767, 1543])
        #expect(tokenizer.encode(" Привет, как дела?") == [38932, 11, 3014, 46157, 30])
    }

    @Test func encodesWhitespaceAndNumbersLikeGPT2() throws {
        let tokenizer = try TokenizerFixtures.base()
        #expect(tokenizer.encode("  two  spaces\n\nnewline") == [220, 732, 220, 7673, 198, 198, 7686, 1889])
        #expect(tokenizer.encode("x 42 1234567") == [87, 14034, 34466, 8465, 22452])
        #expect(tokenizer.encode("") == [])
    }

    /// Runs of one repeated pair, where merges overlap and the leftmost wins.
    @Test func encodesRepetitionsLeftmostFirst() throws {
        let base = try TokenizerFixtures.base()
        #expect(base.encode("aaaaaaaaaaa") == [16425, 16425, 22714])
        #expect(base.encode(" hahahahahahahahaha") == [17206, 11562, 11562, 30284])
        #expect(base.encode("!!!!!!!!!") == [8153, 28493])
        #expect(base.encode("0000000") == [33202, 1360])
        let tiny = try TokenizerFixtures.tinyEn()
        #expect(tiny.encode("aaaaaaaaaaa") == [24794, 24794, 46071])
        #expect(tiny.encode(" hahahahahahahahaha") == [387, 71, 36225, 36225, 36225, 12236])
        #expect(tiny.encode("0000000") == [24598])
    }

    /// Unspaced CJK text is one long piece; it still encodes quickly and exactly.
    @Test func encodesLongUnspacedText() throws {
        let tokenizer = try TokenizerFixtures.base()
        let sentence = "東京は日本の首都です今日はいい天気ですね"
        let text = String(repeating: sentence, count: 200)
        let tokens = tokenizer.encode(text)
        #expect(tokenizer.decode(tokens) == text)
        #expect(tokens.count < text.utf8.count / 2)
    }

    @Test(arguments: [
        "And so, my fellow Americans: ask not what your country can do for you.",
        "¿Dónde está la biblioteca? Mañana, señor Núñez.",
        "東京は日本の首都です。今日はいい天気ですね！",
        "Съешь же ещё этих мягких французских булок, да выпей чаю.",
        "Emoji 🎙️ and tabs\tand  double  spaces\n",
        "Ελληνικά, العربية, हिन्दी, 한국어",
    ])
    func roundTripsText(_ text: String) throws {
        for tokenizer in [try TokenizerFixtures.base(), try TokenizerFixtures.tinyEn()] {
            let tokens = tokenizer.encode(text)
            #expect(tokens.allSatisfy { $0 >= 0 && $0 < tokenizer.specialTokens.endOfText })
            #expect(tokenizer.decode(tokens) == text)
        }
    }

    @Test func decodeSkipsSpecialAndTimestampTokens() throws {
        let tokenizer = try TokenizerFixtures.base()
        let special = tokenizer.specialTokens
        let text = tokenizer.encode(" Hello world")
        let sequence = [special.startOfTranscript, special.language("en")!, special.transcribe,
                        special.timestampBegin] + text + [special.timestampBegin + 50, special.endOfText, 99_999, -1]
        #expect(tokenizer.decode(sequence) == " Hello world")
    }

    @Test func bytesOfTokensAreRawUTF8() throws {
        let tokenizer = try TokenizerFixtures.base()
        #expect(tokenizer.bytes(of: 2425) == Array(" Hello".utf8))
        #expect(tokenizer.bytes(of: 220) == [0x20])
        #expect(tokenizer.bytes(of: 198) == [0x0A])
        #expect(tokenizer.bytes(of: tokenizer.specialTokens.endOfText) == [])
        // "é" (C3 A9) in the English-only vocabulary is split across two byte tokens.
        let tiny = try TokenizerFixtures.tinyEn()
        let tokens = tiny.encode(" ¿")
        #expect(tokens.flatMap(tiny.bytes(of:)) == Array(" ¿".utf8))
        #expect(tokens.count == 2)
    }

    @Test func vocabularySizesMatchTheModels() throws {
        let base = try TokenizerFixtures.base()
        let tiny = try TokenizerFixtures.tinyEn()
        #expect(base.vocabularySize == 51865)
        #expect(tiny.vocabularySize == 51864)
        #expect(base.textTokenCount == 50257)
        #expect(tiny.textTokenCount == 50256)
    }

    @Test func textOfTokensSpellsSpecials() throws {
        let tokenizer = try TokenizerFixtures.base()
        #expect(tokenizer.text(of: 2425) == " Hello")
        #expect(tokenizer.text(of: 50257) == "<|endoftext|>")
        #expect(tokenizer.text(of: 50364 + 75) == "<|1.50|>")
    }
}
