import Foundation

/// Loaded models shared by every recognizer in the process, so that each
/// request does not reload weights. Apple's faces retain models after use
/// (`SpeechAnalyzer.Options.modelRetention`); `release` lets them go.
public final class ModelCache: @unchecked Sendable {
    /// The process-wide cache over the default asset store.
    public static let shared = ModelCache(store: .default)

    public let store: AssetStore
    /// Where the compute type of loads without one comes from (``ComputeType/configured(environment:)``).
    private let environment: [String: String]
    private let lock = NSLock()
    private struct Key: Hashable {
        var name: ModelName
        var computeType: ComputeType
    }
    private var transcribers: [Key: Transcriber] = [:]

    /// - Parameter environment: read for `SPEECHCOMPAT_COMPUTE_TYPE`, the
    ///   compute type of loads that name none.
    public init(store: AssetStore, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.store = store
        self.environment = environment
    }

    /// The transcriber for an installed model, loading it on first use.
    /// - Parameter computeType: nil for the one `SPEECHCOMPAT_COMPUTE_TYPE`
    ///   names, else ``ComputeType/default``.
    /// - Throws: `EngineError(.modelNotFound)` naming the install command;
    ///   `EngineError(.invalidArgument)` when `SPEECHCOMPAT_COMPUTE_TYPE` names no type.
    public func transcriber(_ name: ModelName, computeType: ComputeType? = nil) throws -> Transcriber {
        let computeType = try computeType ?? ComputeType.configured(environment: environment)
        lock.lock()
        defer { lock.unlock() }
        let key = Key(name: name, computeType: computeType)
        if let loaded = transcribers[key] { return loaded }
        let transcriber = Transcriber(model: try WhisperModel(name, store: store, computeType: computeType))
        transcribers[key] = transcriber
        return transcriber
    }

    /// The compute type of live audio's final results: the one
    /// `SPEECHCOMPAT_COMPUTE_TYPE` names, else ``ComputeType/live``.
    /// - Throws: `EngineError(.invalidArgument)` when the variable names no type.
    public func liveComputeType() throws -> ComputeType {
        try ComputeType.configured(environment: environment, unset: .live)
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

    /// Whether a model is loaded now in `computeType`.
    public func isLoaded(_ name: ModelName, computeType: ComputeType) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return transcribers[Key(name: name, computeType: computeType)] != nil
    }

    /// Drops loaded models (they are freed when no recognizer uses them).
    public func releaseAll() {
        lock.lock()
        defer { lock.unlock() }
        transcribers.removeAll()
    }
}
