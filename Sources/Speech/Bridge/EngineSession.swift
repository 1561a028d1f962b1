import Foundation
import SpeechEngine

/// The real `RecognitionSession`: the engine's `StreamingRecognizer` over
/// the shared, retained models.
///
/// Finals come from whisper-base; volatile results come from whisper-tiny.en
/// for English when it is installed (several times faster), else from
/// whisper-base as well.
final class EngineSession: RecognitionSession {
    private let recognizer: StreamingRecognizer

    var events: AsyncStream<StreamingEvent> { recognizer.events }

    /// - Throws: `EngineError(.unsupportedLanguage)` for a locale no model
    ///   decodes, `EngineError(.modelNotFound)` when the model is not installed.
    init(locale: Locale, options: StreamingOptions, models: ModelCache = .shared) throws {
        var options = options
        if options.transcription.language == nil {
            guard let language = LocaleMapping.whisperLanguage(for: locale, among: LocaleMapping.whisperLanguages) else {
                throw EngineError(.unsupportedLanguage,
                                  "No installed model recognizes \(locale.identifier). Use one of SFSpeechRecognizer.supportedLocales().")
            }
            options.transcription.language = language
        }
        let accurate = try models.transcriber(.whisperBase)
        var fast: Transcriber?
        if options.transcription.language == "en", models.store.isInstalled(.whisperTinyEn) {
            fast = try? models.transcriber(.whisperTinyEn)
        }
        recognizer = StreamingRecognizer(accurate: accurate, fast: fast, options: options)
    }

    func append(_ samples: [Float]) { recognizer.append(samples) }
    func finish() { recognizer.finish() }
    func cancel() { recognizer.cancel() }

    /// The factory the faces use in the product.
    static let factory = RecognitionSessionFactory { locale, options in
        try EngineSession(locale: locale, options: options)
    }
}
