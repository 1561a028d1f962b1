import Foundation
import SpeechFuzzing
import TestSupport
import Testing
@testable import SpeechEngine

/// Damaged `model.bin` and `config.json` files, on a synthetic Whisper
/// checkpoint: each must be `EngineError(.invalidModelFile)` naming the file
/// and `speech assets install`, never a trap.
@Suite struct ModelFileDamageTests {
    let folder: URL
    let url: URL
    let good = SyntheticModelFile().bytes()

    init() throws {
        folder = try Fixtures.temporaryDirectory("model-file")
        url = folder.appendingPathComponent("model.bin")
    }

    /// Loads `bytes` as model.bin and returns the error it must throw.
    func loadError(_ bytes: [UInt8]) throws -> EngineError {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(bytes).write(to: url)
        let error = try #require(throws: EngineError.self) { _ = try WhisperModel.readWeights(url) }
        #expect(error.code == .invalidModelFile)
        #expect(error.message.contains(url.path))
        #expect(error.message.contains("speech assets install"))
        return error
    }

    /// The offset of the header of the variable called `name`.
    func header(_ name: String) -> Int {
        let bytes = good.bytes
        let needle = Array(name.utf8) + [0]
        for start in good.hotOffsets where start + 2 + needle.count <= bytes.count
            && Array(bytes[(start + 2)..<(start + 2 + needle.count)]) == needle {
            return start
        }
        Issue.record("no variable \(name)")
        return 0
    }

    /// Writes a little-endian u32 at `offset`.
    func patched(_ offset: Int, _ value: UInt32, in bytes: [UInt8]? = nil) -> [UInt8] {
        var copy = bytes ?? good.bytes
        for index in 0..<4 { copy[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
        return copy
    }

    @Test func syntheticModelLoads() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(good.bytes).write(to: url)
        let weights = try WhisperModel.readWeights(url)
        #expect(weights.dimensions.width == 4)
        #expect(weights.dimensions.headCount == 1)
        #expect(weights.dimensions.vocabularySize == 51_864)
        #expect(weights.dimensions.encoderLayerCount == 1 && weights.dimensions.decoderLayerCount == 1)
    }

    @Test(arguments: [3, 30, 1_000, 100_000, 200_000])
    func truncatedModelBin(at length: Int) throws {
        let error = try loadError(Array(good.bytes.prefix(length)))
        #expect(error.message.contains("truncated"))
    }

    @Test func wrongVersion() throws {
        let error = try loadError(patched(0, 7))
        #expect(error.message.contains("version 7"))
    }

    /// A dimension of 0xFFFFFFFF: the element count overflows Int on a rank-3 tensor.
    @Test func overflowingShape() throws {
        let start = header("encoder/conv1/weight") + 2 + "encoder/conv1/weight".utf8.count + 1 + 1
        var bytes = patched(start, 0xFFFF_FFFF)
        bytes = patched(start + 4, 0xFFFF_FFFF, in: bytes)
        let error = try loadError(bytes)
        #expect(error.message.contains("declares"))
    }

    /// A byte count larger than what is left of the file is refused before allocating it.
    @Test func byteCountBeyondTheFile() throws {
        let name = "decoder/embeddings/weight"
        let start = header(name) + 2 + name.utf8.count + 1
        // Rank 2, dims [N, 4], dtype i8: 2^30 - 1 rows need 4 GB, consistent with the byte count.
        var bytes = patched(start + 1, (1 << 30) - 1)
        bytes = patched(start + 10, 0xFFFF_FFFC, in: bytes)
        let error = try loadError(bytes)
        #expect(error.message.contains("remain"))
    }

    @Test func unknownDType() throws {
        let name = "encoder/conv1/bias"
        var bytes = good.bytes
        bytes[header(name) + 2 + name.utf8.count + 1 + 1 + 4] = 9
        let error = try loadError(bytes)
        #expect(error.message.contains("unknown dtype 9"))
    }

    /// An fp16 weight whose exponent bits are all set is Inf or NaN.
    @Test func nonFiniteWeight() throws {
        let name = "encoder/conv1/weight"
        let data = header(name) + 2 + name.utf8.count + 1 + 1 + 12 + 1 + 4
        var bytes = good.bytes
        bytes[data] = 0x00
        bytes[data + 1] = 0x7E // fp16 NaN
        let error = try loadError(bytes)
        #expect(error.message.contains("Inf or NaN"))
    }

    @Test(arguments: [0, 3, 1_000])
    func impossibleHeadCount(_ heads: Int) throws {
        var model = SyntheticModelFile()
        model.headCount = heads
        let error = try loadError(model.bytes().bytes)
        #expect(error.message.contains("inconsistent Whisper shapes"))
    }

    @Test func vocabularyOfTheWrongSize() throws {
        var model = SyntheticModelFile()
        model.vocabularySize = 1_000
        let error = try loadError(model.bytes().bytes)
        #expect(error.message.contains("embeddings"))
    }

    /// An empty text context fails at load; a small consistent one loads and
    /// `Transcriber` refuses to transcribe with it.
    @Test func textContextTooSmall() throws {
        var model = SyntheticModelFile()
        model.textContext = 0
        let error = try loadError(model.bytes().bytes)
        #expect(error.message.contains("decoder positions"))
    }

    @Test func notAWhisperSpec() throws {
        var model = SyntheticModelFile()
        model.specName = "TransformerSpec"
        let error = try loadError(model.bytes().bytes)
        #expect(error.message.contains("TransformerSpec"))
    }

    @Test func missingModelBinIsModelNotFound() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: EngineError.self) { _ = try WhisperModel.readWeights(url) }
        #expect(error.code == .modelNotFound)
        #expect(error.message.contains("speech assets install"))
    }

    @Test(arguments: [
        #"{"alignment_heads": [[5, 0]]}"#, #"{"alignment_heads": [[0, -1]]}"#, #"{"alignment_heads": [[0]]}"#,
        #"{"suppress_ids": [-3]}"#, #"{"suppress_ids_begin": [99999999]}"#, #"{"alignment_heads": "x"}"#, "{",
    ])
    func damagedConfig(_ text: String) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(good.bytes).write(to: url)
        let dimensions = try WhisperModel.readWeights(url).dimensions
        let config = folder.appendingPathComponent("config.json")
        try Data(text.utf8).write(to: config)
        let error = try #require(throws: EngineError.self) {
            try ModelConfig(contentsOf: config).validate(against: dimensions, url: config)
        }
        #expect(error.code == .invalidModelFile)
        #expect(error.message.contains(config.path))
        #expect(error.message.contains("speech assets install"))
    }
}
