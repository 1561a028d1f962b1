import Foundation
internal import SpeechEngine

/// The product's `RecognitionBackend`: the engine's `StreamingRecognizer`
/// over the shared, retained models.
///
/// Finals come from whisper-base: live audio's in ``ComputeType/live``
/// (`int8-mixed` unless `SPEECHCOMPAT_COMPUTE_TYPE` names a type), loaded when
/// the first live audio comes; recordings' (a URL request's or an analyzer's
/// file) in the default type, as `speech transcribe` decodes files, loaded
/// at the first recording. Volatile results come from whisper-tiny.en in
/// int8 for English when it is installed (`ModelCache.volatileTranscriber`),
/// else from the live model.
final class EngineBackend: RecognitionBackend {
    private let recognizer: StreamingRecognizer
    private let live: DeferredTranscriber
    let updates: AsyncStream<SessionUpdate>

    /// - Throws: `EngineError(.unsupportedLanguage)` for a locale no model
    ///   decodes, `EngineError(.modelNotFound)` when the model is not installed.
    init(locale: Locale, configuration: RecognitionConfiguration, models: ModelCache = .shared) throws {
        let options = try ConfigurationMapping.streamingOptions(for: configuration, locale: locale)
        guard options.transcription.language != nil else {
            throw EngineError(.unsupportedLanguage,
                              "No installed model recognizes \(locale.identifier). Use one of SFSpeechRecognizer.supportedLocales().")
        }
        // Each model loads at its first use (a live-only client never holds
        // the files' one, a file-only client never the live one); a missing
        // model or a bad SPEECHCOMPAT_COMPUTE_TYPE still fails here, at once.
        _ = try models.store.requireInstalled(.whisperBase)
        let liveType = try models.liveComputeType()
        // Both come from `models`, which keeps one transcriber per type.
        let recordings = DeferredTranscriber { try models.transcriber(.whisperBase) }
        let live = DeferredTranscriber { try models.transcriber(.whisperBase, computeType: liveType) }
        let fast = models.volatileTranscriber(language: options.transcription.language)
        let recognizer = StreamingRecognizer(live: live, recordings: recordings, fast: fast, options: options)
        self.recognizer = recognizer
        self.live = live
        updates = AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let reader = Task.detached {
                for await event in recognizer.events { continuation.yield(SessionUpdate(event)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in reader.cancel() }
        }
    }

    deinit {
        recognizer.cancel()
    }

    /// Drops the shared cache's models (running recognizers keep theirs).
    static func releaseSharedModels() {
        ModelCache.shared.releaseAll()
    }

    func append(_ samples: [Float]) {
        live.prefetch()
        recognizer.append(samples)
    }
    func appendGap(seconds: Double) { recognizer.appendGap(seconds: seconds) }
    func appendRecording(_ samples: [Float]) { recognizer.appendRecording(samples) }
    func commit(throughSeconds seconds: Double) { recognizer.commit(throughSeconds: seconds) }
    func finish() { recognizer.finish() }
    func cancel() { recognizer.cancel() }
}
