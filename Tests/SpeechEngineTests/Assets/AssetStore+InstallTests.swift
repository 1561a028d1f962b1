import Foundation
import Testing
@testable import SpeechEngine

/// Installs run for real from the machine's wheel cache (whisper-tiny.en:
/// a 71 MB wheel), one at a time to keep the disk and both cores calm.
@Suite(.serialized) struct AssetStoreInstallTests {
    @Test func installsVerifiesAndIsIdempotent() async throws {
        let store = try AssetFixtures.temporaryStore()
        defer { AssetFixtures.discard(store) }
        let progress = Progress(totalUnitCount: 0)
        try await store.install(.whisperTinyEn, progress: progress)
        #expect(store.installedModels() == [.whisperTinyEn])
        try store.verify(.whisperTinyEn)
        #expect(progress.totalUnitCount > 0)
        #expect(progress.completedUnitCount == progress.totalUnitCount)
        #expect(progress.assetInstallStep == "Installing whisper-tiny.en")
        #expect(AssetFixtures.leftovers(in: store).isEmpty)
        // The installed tokenizer loads.
        let tokenizer = try BPETokenizer(directory: store.directory(for: .whisperTinyEn), isMultilingual: false)
        #expect(tokenizer.encode(" Hello") == [18435])

        // A second install verifies and keeps the same files.
        let modelBin = store.directory(for: .whisperTinyEn).appendingPathComponent("model.bin")
        let inode = try FileManager.default.attributesOfItem(atPath: modelBin.path)[.systemFileNumber] as? NSNumber
        let again = Progress(totalUnitCount: 0)
        try await store.install(.whisperTinyEn, progress: again)
        let inodeAfter = try FileManager.default.attributesOfItem(atPath: modelBin.path)[.systemFileNumber] as? NSNumber
        #expect(inode != nil && inode == inodeAfter)
        #expect(again.assetInstallStep == "Verifying whisper-tiny.en")
        #expect(again.fractionCompleted == 1)
    }

    /// A hand-placed model that verifies counts as installed: no rebuild.
    @Test func acceptsAHandPlacedModel() async throws {
        let store = try AssetFixtures.temporaryStore(pythonExecutable: "/bin/false")
        defer { AssetFixtures.discard(store) }
        try AssetFixtures.copyInstalled(.whisperTinyEn, into: store)
        // With no working Python, any download or extraction would fail.
        try await store.install(.whisperTinyEn)
        try store.verify(.whisperTinyEn)
    }

    @Test func reinstallsOverACorruptedModel() async throws {
        let store = try AssetFixtures.temporaryStore()
        defer { AssetFixtures.discard(store) }
        try AssetFixtures.copyInstalled(.whisperTinyEn, into: store)
        try AssetFixtures.corruptByte(of: store.directory(for: .whisperTinyEn).appendingPathComponent("model.bin"))
        let progress = Progress(totalUnitCount: 0)
        try await store.install(.whisperTinyEn, progress: progress)
        try store.verify(.whisperTinyEn)
        #expect(AssetFixtures.leftovers(in: store).isEmpty)
        #expect(progress.fractionCompleted == 1)
    }

    /// When fetching fails, nothing is left behind: no model folder, no
    /// staging folder, and leftovers of an earlier interrupted install and
    /// download are gone.
    @Test func failedInstallLeavesNothingBehind() async throws {
        let store = try AssetStore(root: AssetFixtures.temporaryStore().root,
                                   wheelCache: AssetFixtures.temporaryStore().root, pythonExecutable: "/bin/false")
        defer {
            AssetFixtures.discard(store)
            try? FileManager.default.removeItem(at: store.wheelCache.deletingLastPathComponent())
        }
        let interrupted = store.root.appendingPathComponent(".staging-whisper-tiny.en-interrupted/whisper-tiny.en")
        try FileManager.default.createDirectory(at: interrupted, withIntermediateDirectories: true)
        try Data("partial".utf8).write(to: interrupted.appendingPathComponent("model.bin"))
        let wheel = ModelAssetManifest.forModel(.whisperTinyEn).wheels[0]
        let download = store.wheelCache.appendingPathComponent(".download-\(wheel.fileName)-interrupted")
        try FileManager.default.createDirectory(at: download, withIntermediateDirectories: true)
        try Data("partial".utf8).write(to: download.appendingPathComponent(wheel.fileName))

        let error = await #expect(throws: EngineError.self) { try await store.install(.whisperTinyEn) }
        #expect(error?.code == .assetInstallFailed)
        #expect(error?.message.contains("pip") == true)
        #expect(!FileManager.default.fileExists(atPath: store.directory(for: .whisperTinyEn).path))
        #expect(AssetFixtures.leftovers(in: store).isEmpty)
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: store.wheelCache.path)) ?? []
        #expect(cached.isEmpty)
    }

    @Test func missingPythonIsNamedInTheError() async throws {
        let store = try AssetStore(root: AssetFixtures.temporaryStore().root,
                                   wheelCache: AssetFixtures.temporaryStore().root,
                                   pythonExecutable: "speechcompat-no-such-python3")
        defer {
            AssetFixtures.discard(store)
            try? FileManager.default.removeItem(at: store.wheelCache.deletingLastPathComponent())
        }
        let error = await #expect(throws: EngineError.self) { try await store.install(.whisperTinyEn) }
        #expect(error?.code == .assetInstallFailed)
        #expect(error?.message.contains("Cannot run speechcompat-no-such-python3") == true)
        #expect(!store.isInstalled(.whisperTinyEn))
    }

    /// A cached wheel that does not match its pin is never used.
    @Test func corruptedCachedWheelIsNotUsed() async throws {
        let cache = try AssetFixtures.temporaryStore().root
        let store = try AssetStore(root: AssetFixtures.temporaryStore().root, wheelCache: cache,
                                   pythonExecutable: "/bin/false")
        defer {
            AssetFixtures.discard(store)
            try? FileManager.default.removeItem(at: cache.deletingLastPathComponent())
        }
        let wheel = ModelAssetManifest.forModel(.whisperTinyEn).wheels[0]
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let bogus = cache.appendingPathComponent(wheel.fileName)
        #expect(FileManager.default.createFile(atPath: bogus.path, contents: nil))
        try FileHandle(forWritingTo: bogus).truncate(atOffset: UInt64(wheel.byteCount))

        let error = await #expect(throws: EngineError.self) { try await store.install(.whisperTinyEn) }
        #expect(error?.code == .assetInstallFailed)
        #expect(!FileManager.default.fileExists(atPath: bogus.path))
        #expect(!store.isInstalled(.whisperTinyEn))
    }

    @Test func cancelledProgressStopsTheInstall() async throws {
        let store = try AssetFixtures.temporaryStore()
        defer { AssetFixtures.discard(store) }
        let progress = Progress(totalUnitCount: 0)
        progress.cancel()
        let error = await #expect(throws: EngineError.self) {
            try await store.install(.whisperTinyEn, progress: progress)
        }
        #expect(error?.code == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: store.directory(for: .whisperTinyEn).path))
        #expect(AssetFixtures.leftovers(in: store).isEmpty)
    }
}
