import Foundation
internal import SpeechEngine

/// The engine's batch decoding of a file — what `speech transcribe` does —
/// with a face's configuration mapped exactly as the faces map it: the
/// baseline a face's output is compared with (`speech compare`'s `batch`
/// path), so a difference is the face's, never the options'.
package enum BatchRecognition {
    /// The whole file as one span: its text, timed words and alternatives.
    /// - Throws: `SFSpeechError.audioReadFailed` for an unreadable file,
    ///   the engine's errors (no model for the locale, not installed) as
    ///   the legacy face reports them.
    package static func transcribe(fileAt url: URL, locale: Locale,
                                   configuration: RecognitionConfiguration) throws -> RecognizedSpan {
        let samples = try BufferConversion.samples(ofFileAt: url)
        do {
            let options = try ConfigurationMapping.streamingOptions(for: configuration, locale: locale).transcription
            guard options.language != nil else {
                throw EngineError(.unsupportedLanguage, "No installed model recognizes \(locale.identifier).")
            }
            let transcript = try ModelCache.shared.transcriber(.whisperBase).transcribe(samples: samples,
                                                                                        options: options)
            return RecognizedSpan(
                startSeconds: 0, endSeconds: Double(samples.count) / BufferConversion.outputRate,
                text: transcript.text.trimmingCharacters(in: .whitespaces),
                words: transcript.words.map(RecognizedWord.init),
                alternatives: transcript.alternatives.map { (text: $0.text, score: $0.score) })
        } catch {
            throw ErrorMapping.legacyError(forAny: error)
        }
    }
}
