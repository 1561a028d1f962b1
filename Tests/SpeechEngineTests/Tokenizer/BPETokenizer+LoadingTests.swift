import Foundation
import Testing
import TestSupport
@testable import SpeechEngine

@Suite struct BPETokenizerLoadingTests {
    @Test func missingTokenizerIsModelNotFoundNamingTheFix() throws {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("whisper-base")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let error = try #require(throws: EngineError.self) {
            try BPETokenizer(directory: folder, isMultilingual: true)
        }
        #expect(error.code == .modelNotFound)
        #expect(error.message.contains("tokenizer.json"))
        #expect(error.message.contains("speech assets install whisper-base"))
    }

    @Test func malformedTokenizerIsInvalidModelFile() throws {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("whisper-tiny.en")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try Data("{\"model\": {\"vocab\": {}".utf8).write(to: folder.appendingPathComponent("tokenizer.json"))
        let error = try #require(throws: EngineError.self) {
            try BPETokenizer(directory: folder, isMultilingual: false)
        }
        #expect(error.code == .invalidModelFile)
        #expect(error.message.contains("speech assets install whisper-tiny.en"))
    }

    @Test func wrongKindOfModelIsRejected() throws {
        let directory = try AssetStore.default.requireInstalled(.whisperTinyEn)
        let error = try #require(throws: EngineError.self) {
            try BPETokenizer(directory: directory, isMultilingual: true)
        }
        #expect(error.code == .invalidModelFile)
        #expect(error.message.contains("<|endoftext|>"))
    }

    /// The broken copy of the base tokenizer lacks merge 0 ("Ġ t"); loading
    /// it must fail rather than encode wrongly.
    @Test func tokenizerWithoutTheFirstMergeIsRejected() throws {
        let source = try AssetStore.default.requireInstalled(.whisperBase).appendingPathComponent("tokenizer.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        var model = try #require(json["model"] as? [String: Any])
        var merges = try #require(model["merges"] as? [Any])
        merges.removeFirst()
        model["merges"] = merges
        json["model"] = model
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("whisper-base")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try JSONSerialization.data(withJSONObject: json).write(to: folder.appendingPathComponent("tokenizer.json"))
        let error = try #require(throws: EngineError.self) {
            try BPETokenizer(directory: folder, isMultilingual: true)
        }
        #expect(error.code == .invalidModelFile)
        #expect(error.message.contains("Ġ t"))
    }
}
