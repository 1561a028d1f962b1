import AVFoundation
import Foundation
import Speech
import SpeechMigration

/// A file transcribed through one of the Apple faces, written the way an app
/// on an Apple platform writes it: what `speech eval --face` scores against
/// the engine's batch path on the same clips.
enum FaceTranscription: String, CaseIterable {
    /// `SFSpeechRecognizer` with an `SFSpeechURLRecognitionRequest`, default
    /// settings (server-style: the first minute of a file).
    case legacy
    /// `SpeechAnalyzer(inputAudioFile:…, finishAfterFile: true)` with a
    /// `SpeechTranscriber` (`.transcription` preset); the final results joined.
    case modern
    /// The legacy code above on the modern pipeline (`useModernPipeline()`).
    case legacyOverModern = "legacy-over-modern"
    /// The modern code above on legacy tasks (`useLegacyPipeline()`).
    case modernOverLegacy = "modern-over-legacy"

    /// The face's transcript of `url` in `locale`; empty when it found no
    /// speech (legacy error 1110).
    func transcribe(_ url: URL, locale: Locale) async throws -> String {
        switch self {
        case .legacy: try await Self.legacyTranscript(url, locale: locale, modernPipeline: false)
        case .modern: try await Self.modernTranscript(url, locale: locale, legacyPipeline: false)
        case .legacyOverModern: try await Self.legacyTranscript(url, locale: locale, modernPipeline: true)
        case .modernOverLegacy: try await Self.modernTranscript(url, locale: locale, legacyPipeline: true)
        }
    }

    private static func legacyTranscript(_ url: URL, locale: Locale, modernPipeline: Bool) async throws -> String {
        guard let recognizer = SFSpeechRecognizer(locale: locale), recognizer.isAvailable else {
            throw SFSpeechError(.noModel, userInfo: [NSLocalizedDescriptionKey:
                "No installed model recognizes \(locale.identifier); run `speech assets install whisper-base`."])
        }
        recognizer.queue = OperationQueue()
        if modernPipeline { recognizer.useModernPipeline() }
        let request = SFSpeechURLRecognitionRequest(url: url)
        return try await withCheckedThrowingContinuation { continuation in
            recognizer.recognitionTask(with: request) { result, error in
                if let error {
                    let nsError = error as NSError
                    if nsError.domain == "kAFAssistantErrorDomain", nsError.code == 1110 {
                        continuation.resume(returning: "")
                    } else {
                        continuation.resume(throwing: error)
                    }
                } else if let result, result.isFinal {
                    continuation.resume(returning: result.bestTranscription.formattedString)
                }
            }
        }
    }

    private static func modernTranscript(_ url: URL, locale: Locale, legacyPipeline: Bool) async throws -> String {
        let transcriber = SpeechTranscriber(locale: locale, preset: .transcription)
        if legacyPipeline { transcriber.useLegacyPipeline() }
        let collector = Task {
            var text = AttributedString()
            for try await result in transcriber.results where result.isFinal { text += result.text }
            return String(text.characters)
        }
        let analyzer = try await SpeechAnalyzer(inputAudioFile: try AVAudioFile(forReading: url),
                                                modules: [transcriber], finishAfterFile: true)
        let text = try await collector.value
        _ = analyzer
        // An app holds at most five locale reservations; one that moves on to
        // another language releases the last, as this does after each file.
        await AssetInventory.release(reservedLocale: locale)
        return text.trimmingCharacters(in: .whitespaces)
    }
}
