import Testing
@testable import SpeechEngine

/// Expected pieces from Hugging Face `tokenizers`' ByteLevel pre-tokenizer
/// (GPT-2's regex), which Whisper's tiktoken pattern equals.
@Suite struct PreTokenizerTests {
    @Test(arguments: [
        ("I'm here,  isn't it?\n\n ok", ["I", "'m", " here", ",", " ", " isn", "'t", " it", "?", "\n\n", " ok"]),
        ("they'LL go  !!  \t x", ["they", "'", "LL", " go", " ", " !!", "  \t", " x"]),
        ("a 1 b23 ?!", ["a", " 1", " b", "23", " ?!"]),
        (" \u{00A0}x\u{3000}y ", [" ", "\u{00A0}", "x", "\u{3000}", "y", " "]),
        ("we're, you've, I'll, he'd", ["we", "'re", ",", " you", "'ve", ",", " I", "'ll", ",", " he", "'d"]),
        ("", []),
    ])
    func splitsLikeGPT2(_ text: String, _ expected: [String]) {
        #expect(PreTokenizer.pieces(of: text).map(String.init) == expected)
    }

    @Test func piecesConcatenateToTheInput() {
        let text = "  Mixed: Ελληνικά 123abc — 東京\t\n end  "
        #expect(PreTokenizer.pieces(of: text).joined() == text)
    }
}
