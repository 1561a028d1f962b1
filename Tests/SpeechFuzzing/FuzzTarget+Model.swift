import Foundation
@_spi(Fuzzing) import SpeechEngine

extension FuzzTarget {
    /// The `model.bin` loader (`ModelFile`, the shape checks, the weight
    /// extraction) on a synthetic Whisper checkpoint, and `config.json`
    /// against its sizes. Contract: success, or `EngineError`
    /// `.invalidModelFile`/`.modelNotFound` whose message names the file and
    /// `speech assets install`.
    public static let modelBin = FuzzTarget(name: "model-bin", seeds: {
        let full = SyntheticModelFile().bytes()
        var multilingual = SyntheticModelFile()
        multilingual.vocabularySize = 51_865
        multilingual.headCount = nil
        let second = multilingual.bytes()
        return [FuzzSeed(name: "synthetic-whisper", bytes: full.bytes, fileExtension: "bin", hotOffsets: full.hotOffsets),
                FuzzSeed(name: "synthetic-multilingual", bytes: second.bytes, fileExtension: "bin", hotOffsets: second.hotOffsets),
                FuzzSeed(name: "minimal", bytes: SyntheticModelFile.minimal(), fileExtension: "bin", hotOffsets: [0, 4, 21])]
    }, execute: { url in
        do {
            let dimensions = try WhisperModel.checkModelFile(at: url)
            let config = url.deletingLastPathComponent().appendingPathComponent("config.json")
            try Data(SyntheticModelFile().configJSON()).write(to: config)
            try WhisperModel.checkConfig(at: config, dimensions: dimensions)
            return .accepted
        } catch let error as EngineError {
            try expect(error, codes: [.invalidModelFile, .modelNotFound], mentions: ["speech assets install"])
            return .refused(summary: FuzzOutcome.summary(error.message))
        }
    })

    /// `tokenizer.json` (vocabulary, merges, added tokens) on a synthetic
    /// English-only tokenizer with all 50,256 text tokens and a small seed.
    /// Contract: success (then encoding and decoding work), or `EngineError`
    /// `.invalidModelFile` naming the file.
    public static let tokenizerJSON = FuzzTarget(name: "tokenizer-json", seeds: {
        try FuzzCorpus.seeds("tokenizer")
            + [FuzzSeed(name: "synthetic-english", bytes: SyntheticTokenizer.englishOnlyJSON(), fileExtension: "json")]
    }, execute: { url in
        do {
            let tokenizer = try BPETokenizer(tokenizerJSON: try Data(contentsOf: url), path: url.path, isMultilingual: false)
            let tokens = tokenizer.encode(" the tk 日本 café")
            _ = tokenizer.decode(tokens + [-1, 50_256, 99_999])
            return .accepted
        } catch let error as EngineError {
            try expect(error, codes: [.invalidModelFile], mentions: [url.path])
            return .refused(summary: FuzzOutcome.summary(error.message))
        }
    })

    /// Throws `FuzzViolation` unless `error` has one of `codes` and its
    /// message contains each of `mentions`.
    static func expect(_ error: EngineError, codes: [EngineError.Code], mentions: [String]) throws {
        guard codes.contains(error.code) else {
            throw FuzzViolation("unexpected code \(error.code): \(error.message)")
        }
        for text in mentions where !error.message.contains(text) {
            throw FuzzViolation("message does not mention \(text): \(error.message)")
        }
    }
}

/// A synthetic byte-level BPE `tokenizer.json` with Whisper's English-only
/// layout: the 256 byte tokens, filler tokens up to id 50,255, five merges
/// (including `Ġ t`, which the loader checks for) and `<|endoftext|>`.
public enum SyntheticTokenizer {
    /// GPT-2's byte-to-character table: printable bytes stand for
    /// themselves, the rest for U+0100 onwards.
    static let byteSpellings: [String] = {
        var printable = Array(33...126) + Array(161...172) + Array(174...255)
        var scalars = printable
        var next = 0
        for byte in 0..<256 where !printable.contains(byte) {
            printable.append(byte)
            scalars.append(256 + next)
            next += 1
        }
        var spellings = [String](repeating: "", count: 256)
        for (byte, scalar) in zip(printable, scalars) { spellings[byte] = String(UnicodeScalar(UInt32(scalar))!) }
        return spellings
    }()

    /// The JSON text.
    public static func englishOnlyJSON() -> [UInt8] {
        var vocab: [(String, Int)] = byteSpellings.enumerated().map { ($0.element, $0.offset) }
        let merged = ["\u{0120}t", "tk", "th", "the", "\u{0120}the"]
        for (offset, spelling) in merged.enumerated() { vocab.append((spelling, 256 + offset)) }
        for id in vocab.count..<50_256 { vocab.append(("zq\(id)", id)) }
        func quoted(_ text: String) -> String {
            var result = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": result += "\\\""
                case "\\": result += "\\\\"
                default:
                    if scalar.value < 0x20 || scalar.value > 0x7E {
                        result += String(format: "\\u%04x", scalar.value)
                    } else {
                        result.unicodeScalars.append(scalar)
                    }
                }
            }
            return result + "\""
        }
        let vocabText = vocab.map { "\(quoted($0.0)):\($0.1)" }.joined(separator: ",")
        let merges = ["t h", "th e", "\u{0120} the", "\u{0120} t", "t k"].map(quoted).joined(separator: ",")
        return Array("""
        {"version":"1.0","added_tokens":[{"id":50256,"content":"<|endoftext|>","special":true}],\
        "model":{"type":"BPE","vocab":{\(vocabText)},"merges":[\(merges)]}}
        """.utf8)
    }
}
