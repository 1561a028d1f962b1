import Foundation

/// Loaded models shared by every recognizer in the process, so that each
/// request does not reload weights. Apple's faces retain models after use
/// (`SpeechAnalyzer.Options.modelRetention`); `release` lets them go.
public final class ModelCache: @unchecked Sendable {
    /// The process-wide cache over the default asset store.
    public static let shared = ModelCache(store: .default)

    public let store: AssetStore
    private let lock = NSLock()
    private struct Key: Hashable {
        var name: ModelName
        var computeType: ComputeType
    }
    private var transcribers: [Key: Transcriber] = [:]

    public init(store: AssetStore) {
        self.store = store
    }

    /// The transcriber for an installed model, loading it on first use.
    /// - Throws: `EngineError(.modelNotFound)` naming the install command.
    public func transcriber(_ name: ModelName, computeType: ComputeType = .default) throws -> Transcriber {
        lock.lock()
        defer { lock.unlock() }
        let key = Key(name: name, computeType: computeType)
        if let loaded = transcribers[key] { return loaded }
        let transcriber = Transcriber(model: try WhisperModel(name, store: store, computeType: computeType))
        transcribers[key] = transcriber
        return transcriber
    }

    /// The model for a stream's volatile results in `language`, or nil when
    /// the stream's own model should give them: whisper-tiny.en with int8
    /// weights for English when it is installed. Volatile text is replaced
    /// within a second, so it is decoded for speed: a volatile pass over
    /// 10 s of speech took 0.19 s this way against 0.49 s in float32 and
    /// about 1.5 s from whisper-base (Benchmarks/RESULTS.md).
    public func volatileTranscriber(language: String?) -> Transcriber? {
        guard language == "en", store.isInstalled(.whisperTinyEn) else { return nil }
        return try? transcriber(.whisperTinyEn, computeType: .int8)
    }

    /// Whether a model is loaded now, in any compute type.
    public func isLoaded(_ name: ModelName) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return transcribers.keys.contains { $0.name == name }
    }

    /// Drops loaded models (they are freed when no recognizer uses them).
    public func releaseAll() {
        lock.lock()
        defer { lock.unlock() }
        transcribers.removeAll()
    }
}
