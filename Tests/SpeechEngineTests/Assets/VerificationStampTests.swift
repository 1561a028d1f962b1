import Foundation
import TestSupport
import Testing
@testable import SpeechEngine

/// A model corrupted after install is caught by its SHA-256 at load, and a
/// stamp keeps later loads from hashing again until a file changes.
@Suite struct VerificationStampTests {
    @Test func modelCorruptedAfterInstallFailsToLoadNamingTheFix() throws {
        let store = try AssetFixtures.temporaryStore()
        defer { AssetFixtures.discard(store) }
        try AssetFixtures.copyInstalled(.whisperTinyEn, into: store)
        let folder = store.directory(for: .whisperTinyEn)
        try store.verify(.whisperTinyEn)
        let files = ModelAssetManifest.forModel(.whisperTinyEn).files
        #expect(VerificationStamp.recorded(in: folder) == VerificationStamp(folder: folder, files: files))

        // Written after the check: new modification time, so the stamp no longer holds.
        try AssetFixtures.corruptByte(of: folder.appendingPathComponent("model.bin"))
        #expect(VerificationStamp.recorded(in: folder) != VerificationStamp(folder: folder, files: files))
        let error = try #require(throws: EngineError.self) { _ = try WhisperModel(.whisperTinyEn, store: store) }
        #expect(error.code == .invalidModelFile)
        #expect(error.message.hasPrefix("\(folder.appendingPathComponent("model.bin").path) is corrupted: its SHA-256 is"))
        #expect(error.message.hasSuffix("Run `speech assets install whisper-tiny.en` to reinstall it."))
    }

    @Test func corruptedTokenizerIsNamed() throws {
        let store = try AssetFixtures.temporaryStore()
        defer { AssetFixtures.discard(store) }
        try AssetFixtures.copyInstalled(.whisperTinyEn, into: store)
        let tokenizer = store.directory(for: .whisperTinyEn).appendingPathComponent("tokenizer.json")
        try AssetFixtures.corruptByte(of: tokenizer)
        let error = try #require(throws: EngineError.self) {
            try AssetStore.verifyPinnedContents(of: store.directory(for: .whisperTinyEn))
        }
        #expect(error.code == .invalidModelFile)
        #expect(error.message.hasPrefix("\(tokenizer.path) is corrupted"))
    }

    @Test func missingStampIsRecheckedAndRewritten() throws {
        let store = try AssetFixtures.temporaryStore()
        defer { AssetFixtures.discard(store) }
        try AssetFixtures.copyInstalled(.whisperTinyEn, into: store)
        let folder = store.directory(for: .whisperTinyEn)
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(VerificationStamp.fileName))
        try AssetStore.verifyPinnedContents(of: folder)
        let files = ModelAssetManifest.forModel(.whisperTinyEn).files
        #expect(VerificationStamp.recorded(in: folder) == VerificationStamp(folder: folder, files: files))
        // The stamp lists each file's name, size, time, inode and pinned hash.
        #expect(VerificationStamp.recorded(in: folder)?.lines.first?.hasPrefix("model.bin 75537502 ") == true)
    }

    /// A folder matching no pin (a user's own conversion) is not hashed.
    @Test func unpinnedFolderIsNotHashed() throws {
        let folder = try Fixtures.temporaryDirectory("unpinned-model")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(repeating: 7, count: 1_000).write(to: folder.appendingPathComponent("model.bin"))
        try AssetStore.verifyPinnedContents(of: folder)
        #expect(VerificationStamp.recorded(in: folder) == nil)
    }
}
