import Foundation
import SpeechFuzzing
import Testing
@_spi(Fuzzing) @testable import SpeechEngine

/// Damaged `tokenizer.json` files, on a synthetic English-only tokenizer:
/// each is `EngineError(.invalidModelFile)` naming the file and saying what
/// is wrong in one line (no `DecodingError` dump), never a trap.
@Suite struct BPETokenizerDamagedFileTests {
    static let good = String(decoding: SyntheticTokenizer.englishOnlyJSON(), as: UTF8.self)
    let path = "/models/test/tokenizer.json"

    func loadError(_ text: String) throws -> EngineError {
        let error = try #require(throws: EngineError.self) {
            _ = try BPETokenizer(tokenizerJSON: Data(text.utf8), path: path, isMultilingual: false)
        }
        #expect(error.code == .invalidModelFile)
        #expect(error.message.hasPrefix(path))
        #expect(error.message.contains("speech assets install"))
        #expect(!error.message.contains("DecodingError") && !error.message.contains("debugDescription"))
        return error
    }

    @Test func syntheticTokenizerLoadsAndMerges() throws {
        let tokenizer = try BPETokenizer(tokenizerJSON: Data(Self.good.utf8), path: path, isMultilingual: false)
        #expect(tokenizer.textTokenCount == 50_256)
        // "Ġ t" (rank 0) then "t k" are merges of the synthetic table.
        #expect(tokenizer.decode(tokenizer.encode(" the tk")) == " the tk")
        #expect(tokenizer.encode(" the") == [260])
    }

    @Test func truncatedJSON() throws {
        let error = try loadError(String(Self.good.prefix(5_000)))
        #expect(error.message.contains("not valid JSON"))
    }

    @Test func missingModelKey() throws {
        let error = try loadError(#"{"added_tokens": []}"#)
        #expect(error.message.contains("missing key model"))
    }

    @Test func mergesOfTheWrongType() throws {
        let error = try loadError(#"{"model": {"vocab": {"a": 0}, "merges": 7}}"#)
        #expect(error.message.contains("model.merges"))
    }

    /// An id past Int32 in a merge used to trap converting it.
    @Test func mergeNamingAnIdBeyondInt32() throws {
        let text = Self.good.replacingOccurrences(of: "\"zq300\":300", with: "\"ZZZ\":300,\"ZZ\":9999999999")
            .replacingOccurrences(of: "\"merges\":[", with: "\"merges\":[\"ZZ Z\",")
        let error = try loadError(text)
        #expect(error.message.contains("names unknown tokens"))
    }

    /// A byte token with a negative id (its id spelled by another token) used
    /// to be accepted, and encoding "Q" then indexed the byte table at -7.
    @Test func negativeByteTokenId() throws {
        #expect(Self.good.contains("\"Q\":81,"))
        let text = Self.good.replacingOccurrences(of: "\"Q\":81,", with: "\"Q\":-7,\"zqQ\":81,")
        let error = try loadError(text)
        #expect(error.message.contains("lacks the byte token Q"))
    }

    @Test func tokenMissingFromTheVocabulary() throws {
        let error = try loadError(Self.good.replacingOccurrences(of: "\"zq300\":300,", with: ""))
        #expect(error.message.contains("has no token 300"))
    }

    @Test func multilingualEndOfTextInAnEnglishTokenizer() throws {
        let error = try loadError(Self.good.replacingOccurrences(of: "\"id\":50256", with: "\"id\":50257"))
        #expect(error.message.contains("<|endoftext|> is token 50257"))
    }
}
