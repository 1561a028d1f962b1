import Foundation
import Testing
import TestSupport
@testable import SpeechEngine

@Suite struct InstallLockTests {
    /// A second holder waits until the first lets go.
    @Test func secondHolderWaitsForTheFirst() async throws {
        let folder = try Fixtures.temporaryDirectory("speechcompat-lock")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(".model.lock")
        var first: InstallLock? = try await InstallLock(file: file)
        let second = Task { () -> Date in
            let lock = try await InstallLock(file: file)
            return withExtendedLifetime(lock) { Date() }
        }
        try await Task.sleep(nanoseconds: 600_000_000)
        let released = Date()
        withExtendedLifetime(first) {}
        first = nil
        let acquired = try await second.value
        #expect(acquired >= released)
    }

    /// Cancelling a waiting holder gives a typed error.
    @Test func waitingIsCancellable() async throws {
        let folder = try Fixtures.temporaryDirectory("speechcompat-lock")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(".model.lock")
        let held = try await InstallLock(file: file)
        let waiter = Task { _ = try await InstallLock(file: file) }
        try await Task.sleep(nanoseconds: 300_000_000)
        waiter.cancel()
        let error = await #expect(throws: EngineError.self) { try await waiter.value }
        #expect(error?.code == .cancelled)
        withExtendedLifetime(held) {}
    }

    @Test func unwritableFolderIsATypedError() async throws {
        let error = await #expect(throws: EngineError.self) {
            _ = try await InstallLock(file: URL(fileURLWithPath: "/proc/speechcompat-no-such-dir/.lock"))
        }
        #expect(error?.code == .assetInstallFailed)
    }
}
