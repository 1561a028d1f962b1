import Foundation
import SpeechEngine
import TestSupport
@testable import Speech

// What the faces' unit tests see of `SpeechTestEnvironment` beyond Speech's
// package API: the engine options a request maps to, and the modern face's
// asset store (internal to Speech, hence here rather than in TestSupport).

extension ScriptedBackend {
    /// The engine options the face's last request for this backend maps to.
    var receivedOptions: StreamingOptions? {
        guard let configuration = receivedConfiguration, let locale = receivedLocale else { return nil }
        return try? ConfigurationMapping.streamingOptions(for: configuration, locale: locale)
    }
}

extension SpeechTestEnvironment {
    /// The engine options of every backend request, in order.
    var requestedOptions: [StreamingOptions] {
        requests.compactMap { try? ConfigurationMapping.streamingOptions(for: $0.configuration, locale: $0.locale) }
    }
}

/// Runs `body` with analyzers on `environment` (its backends and scheduler)
/// and assets (models, reservations) in a fresh temporary folder.
func withModernEnvironment<T>(
    _ environment: SpeechTestEnvironment = SpeechTestEnvironment(),
    assets: ModernAssets? = nil,
    _ body: () async throws -> T
) async throws -> T {
    let folder = try Fixtures.temporaryDirectory("modern")
    defer { try? FileManager.default.removeItem(at: folder) }
    let testAssets = assets ?? ModernAssets(store: AssetStore(root: folder.appendingPathComponent("models")))
    return try await environment.run {
        try await ModernAssets.$overridden.withValue(testAssets) {
            try await body()
        }
    }
}

/// A time in seconds, for readable expectations.
func seconds(_ time: CMTime) -> Double { time.seconds }

/// The English (US) locale the tests use.
let englishUS = Locale(identifier: "en-US")
