import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Telling a full disk apart from other install failures, and saying so:
/// a model install writes a few hundred MB (the unpacked wheels, then the
/// assembled model), and "is the disk full?" is the question the user
/// should not have to ask.
extension AssetStore {
    /// Bytes free to this user on the file system holding `url` (the
    /// nearest existing folder), or `nil` when it cannot be told.
    static func freeBytes(at url: URL) -> Int64? {
        var folder = url
        while !FileManager.default.fileExists(atPath: folder.path), folder.pathComponents.count > 1 {
            folder.deleteLastPathComponent()
        }
        var stats = statvfs()
        guard statvfs(folder.path, &stats) == 0 else { return nil }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }

    /// Whether `error` (or an error under it) is the disk, a quota or a
    /// file-size limit running out: ENOSPC, EDQUOT, EFBIG, or Foundation's
    /// out-of-space write error.
    static func isOutOfSpace(_ error: any Error) -> Bool {
        var current: (any Error)? = error
        for _ in 0..<8 {
            guard let candidate = current else { return false }
            if let engineError = candidate as? EngineError {
                if engineError.code == .insufficientStorage { return true }
                current = engineError.underlying
                continue
            }
            let nsError = candidate as NSError
            if nsError.domain == NSPOSIXErrorDomain, [ENOSPC, EDQUOT, EFBIG].contains(Int32(nsError.code)) { return true }
            if nsError.domain == NSCocoaErrorDomain, nsError.code == CocoaError.fileWriteOutOfSpace.rawValue { return true }
            current = nsError.userInfo[NSUnderlyingErrorKey] as? any Error
        }
        return false
    }

    /// Whether a helper program's output (Python's zipfile, pip) says the
    /// disk, a quota or a file-size limit ran out.
    static func isOutOfSpace(commandOutput: String) -> Bool {
        ["No space left on device", "[Errno 28]", "Disk quota exceeded", "[Errno 122]", "File too large", "[Errno 27]"]
            .contains { commandOutput.contains($0) }
    }

    /// The install error for a full disk while `step` of `model`'s install:
    /// how much is free where, roughly what the install needs, and how to
    /// fix it. Nothing of the failed install is left; other models are
    /// untouched.
    func diskFullError(_ step: String, model: ModelName, underlying: (any Error)?) -> EngineError {
        let manifest = ModelAssetManifest.forModel(model)
        let needed = manifest.wheels.reduce(0) { $0 + $1.byteCount } + manifest.installedByteCount
        let free = AssetStore.freeBytes(at: root).map { "\(megabytes($0)) MB are free" } ?? "the free space is unknown"
        return EngineError(.insufficientStorage,
                           "The disk holding \(root.path) is full: \(step) for \(model.rawValue) failed (\(free); "
                               + "the install needs about \(megabytes(needed)) MB while it runs). Nothing of it was "
                               + "kept and installed models are untouched. Free some space, or set "
                               + "SPEECHCOMPAT_MODELS_DIR to a folder on a larger disk, then run "
                               + "`\(model.installCommand)` again.",
                           underlying: underlying)
    }

    private func megabytes(_ bytes: Int64) -> Int64 { (bytes + 999_999) / 1_000_000 }
}
