import Foundation
import TestSupport
import Testing
@testable import Speech

@Suite struct AuthorizationStoreTests {
    @Test func firstRequestGrantsAndPersists() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = AuthorizationStore(fileURL: folder.appendingPathComponent("speechcompat/speech-authorization"),
                                       environment: [:])
        #expect(store.status() == .notDetermined)
        #expect(store.request() == .authorized)
        #expect(store.status() == .authorized)
        store.persist(.denied)
        #expect(store.request() == .denied)
        #expect(AuthorizationStore(fileURL: store.fileURL, environment: [:]).status() == .denied)
    }

    @Test func environmentOverridesWithoutPersisting() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("speech-authorization")
        let forced = AuthorizationStore(fileURL: file, environment: [AuthorizationStore.environmentKey: "Restricted"])
        #expect(forced.status() == .restricted)
        #expect(forced.request() == .restricted)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let garbage = AuthorizationStore(fileURL: file, environment: [AuthorizationStore.environmentKey: "maybe"])
        #expect(garbage.status() == .notDetermined)
    }
}
