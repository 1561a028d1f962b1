import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock (`flock`) on a file, held while a model is
/// installed so that two processes never build the same model at once.
///
/// The kernel releases the lock if the process dies, so an interrupted
/// install never leaves a stale lock behind.
final class InstallLock {
    private let descriptor: Int32

    /// Takes the lock on `url` (creating the file), waiting while another
    /// process holds it.
    /// - Throws: `EngineError` `.assetInstallFailed` when the lock file
    ///   cannot be created, `.cancelled` when the task is cancelled while waiting.
    init(file url: URL) async throws {
        let descriptor = open(url.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw EngineError(.assetInstallFailed,
                              "Cannot create the lock file \(url.path) (errno \(errno)): check the folder's permissions.")
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let code = errno
                close(descriptor)
                throw EngineError(.assetInstallFailed, "Cannot lock \(url.path) (errno \(code)).")
            }
            do {
                try await Task.sleep(nanoseconds: 200_000_000)
            } catch {
                close(descriptor)
                throw EngineError(.cancelled, "The install was cancelled while waiting for another install to finish.")
            }
        }
        self.descriptor = descriptor
    }

    /// Releases the lock.
    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
