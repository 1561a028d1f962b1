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

    /// Loads that name no compute type take `SPEECHCOMPAT_COMPUTE_TYPE`'s, and
    /// a value that names none is a typed error before any model is looked for.
    @Test func theEnvironmentsComputeTypeIsCheckedBeforeTheModel() throws {
        let store = try AssetFixtures.temporaryStore()
        defer { AssetFixtures.discard(store) }
        let wrong = ModelCache(store: store, environment: [ComputeType.environmentVariable: "fast"])
        let error = try #require(throws: EngineError.self) { try wrong.transcriber(.whisperBase) }
        #expect(error.code == .invalidArgument, "\(error)")
        // A type given explicitly does not read the environment.
        let explicit = try #require(throws: EngineError.self) { try wrong.transcriber(.whisperBase, computeType: .int8) }
        #expect(explicit.code == .modelNotFound)
        // A type it names is taken: the load goes on to look for the model.
        let mixed = ModelCache(store: store, environment: [ComputeType.environmentVariable: "int8-mixed"])
        let missing = try #require(throws: EngineError.self) { try mixed.transcriber(.whisperBase) }
        #expect(missing.code == .modelNotFound)
    }

    /// Live audio's type: the environment's when it names one, else `ComputeType.live`.
    @Test func liveAudiosTypeIsTheEnvironmentsOrTheLiveDefault() throws {
        let store = try AssetFixtures.temporaryStore()
        defer { AssetFixtures.discard(store) }
        let variable = ComputeType.environmentVariable
        #expect(try ModelCache(store: store, environment: [:]).liveComputeType() == .int8Mixed)
        #expect(try ModelCache(store: store, environment: [variable: "float16-weights"]).liveComputeType()
                == .float16Weights)
        let error = try #require(throws: EngineError.self) {
            try ModelCache(store: store, environment: [variable: "int4"]).liveComputeType()
        }
        #expect(error.code == .invalidArgument)
    }
}
