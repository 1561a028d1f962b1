import Foundation

/// Loaded models shared by every recognizer in the process, so that each
/// request does not reload weights. Apple's faces retain models after use
/// (`SpeechAnalyzer.Options.modelRetention`); `release` lets them go.
public final class ModelCache: @unchecked Sendable {
    /// The process-wide cache over the default asset store.
    public static let shared = ModelCache(store: .default)

    public let store: AssetStore
    private let lock = NSLock()
    private var transcribers: [ModelName: Transcriber] = [:]

    public init(store: AssetStore) {
        self.store = store
    }

    /// The transcriber for an installed model, loading it on first use.
    /// - Throws: `EngineError(.modelNotFound)` naming the install command.
    public func transcriber(_ name: ModelName) throws -> Transcriber {
        lock.lock()
        defer { lock.unlock() }
        if let loaded = transcribers[name] { return loaded }
        let transcriber = try Transcriber(model: name, store: store)
        transcribers[name] = transcriber
        return transcriber
    }

    /// Whether a model is loaded now.
    public func isLoaded(_ name: ModelName) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return transcribers[name] != nil
    }

    /// Drops loaded models (they are freed when no recognizer uses them).
    public func releaseAll() {
        lock.lock()
        defer { lock.unlock() }
        transcribers.removeAll()
    }
}
