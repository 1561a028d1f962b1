import Foundation
import Testing
@testable import SpeechEngine

/// The shared model cache without models: a missing model is a typed error
/// naming the install command, and no volatile model means the stream's own
/// model gives volatile results (loading real weights: ComputeTypeModelTests).
@Suite("ModelCache")
struct ModelCacheTests {
    @Test func anEmptyStoreHasNoVolatileModelAndNamesTheInstallForTheRest() throws {
        let store = try AssetFixtures.temporaryStore()
        defer { AssetFixtures.discard(store) }
        let cache = ModelCache(store: store)
        #expect(cache.volatileTranscriber(language: "en") == nil)
        #expect(cache.volatileTranscriber(language: "de") == nil)
        #expect(!cache.isLoaded(.whisperTinyEn))
        let error = try #require(throws: EngineError.self) { try cache.transcriber(.whisperBase) }
        #expect(error.code == .modelNotFound)
        #expect(error.message.contains("speech assets install whisper-base"), "\(error.message)")
    }
}
