import Foundation
import Testing
@testable import SpeechEngine

extension AssetStoreInstallTests {
    /// What an install killed half-way (SIGKILL, power loss) leaves behind:
    /// a half-copied model folder missing a file, a staging folder with a
    /// partial model.bin, a trash folder from the final swap, and the lock
    /// file. Loading says what to run; the next install cleans up and
    /// leaves a model that verifies and loads its tokenizer.
    @Test func halfWrittenInstallIsRecoveredByTheNextInstall() async throws {
        let store = try AssetFixtures.temporaryStore()
        defer { AssetFixtures.discard(store) }
        let source = try AssetStore.default.requireInstalled(.whisperTinyEn)
        let folder = store.directory(for: .whisperTinyEn)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let half = try FileHandle(forReadingFrom: source.appendingPathComponent("model.bin")).read(upToCount: 20_000_000) ?? Data()
        try half.write(to: folder.appendingPathComponent("model.bin"))
        try FileManager.default.copyItem(at: source.appendingPathComponent("config.json"),
                                         to: folder.appendingPathComponent("config.json"))
        let staging = store.root.appendingPathComponent(".staging-whisper-tiny.en-\(UUID().uuidString)/whisper-tiny.en")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try half.prefix(1_000_000).write(to: staging.appendingPathComponent("model.bin"))
        let trash = store.root.appendingPathComponent(".trash-whisper-tiny.en-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: trash, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: trash.appendingPathComponent("model.bin"))
        try Data().write(to: store.root.appendingPathComponent(".whisper-tiny.en.lock"))

        #expect(!store.isInstalled(.whisperTinyEn))
        let loadError = try #require(throws: EngineError.self) { _ = try WhisperModel(.whisperTinyEn, store: store) }
        #expect(loadError.message.contains("speech assets install whisper-tiny.en"))

        try await store.install(.whisperTinyEn)
        try store.verify(.whisperTinyEn)
        #expect(AssetFixtures.leftovers(in: store).isEmpty)
        #expect(VerificationStamp.recorded(in: folder) != nil)
        let tokenizer = try BPETokenizer(directory: folder, isMultilingual: false)
        #expect(tokenizer.encode(" Hello") == [18435])
    }
}
