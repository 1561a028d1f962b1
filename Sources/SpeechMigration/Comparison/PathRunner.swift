import AVFoundation
import Foundation
import Speech

/// Runs one audio file through a recognition path and returns its outcome:
/// the legacy face, the modern face, or either adapter, all with the same
/// settings so that their outcomes can be compared.
///
/// - Legacy: `SFSpeechRecognizer` + `SFSpeechURLRecognitionRequest` with a
///   delegate, `requiresOnDeviceRecognition = true` (no one-minute limit:
///   comparisons cover whole files).
/// - Modern: `SpeechAnalyzer` + `SpeechTranscriber` over the file, with time
///   range and confidence attributes, finalized through the end of the file.
/// - Legacy over modern: the legacy code above on a recognizer that runs on
///   the modern pipeline (`useModernPipeline()`).
/// - Modern over legacy: the modern code above on a transcriber that runs on
///   legacy tasks configured like the legacy path's request
///   (`useLegacyPipeline(configuredLike:)`).
/// - Batch: the engine's batch decoding of the file with the legacy path's
///   settings, through no face (the baseline the faces deliver).
///
/// Recognition errors (no speech, a failed analysis) are part of the
/// outcome (`error`), not thrown, so a suite can expect them.
public struct PathRunner: Sendable {
    /// The locale every path recognizes.
    public var locale: Locale
    /// Whether transcripts keep punctuation (legacy `addsPunctuation`;
    /// removed from modern text when false). Default false.
    public var addsPunctuation: Bool
    /// Phrases to favour (legacy `contextualStrings`, modern `AnalysisContext`).
    public var contextualStrings: [String]
    /// Whether partial / volatile results are asked for (they show in `events`).
    public var reportsPartialResults: Bool

    /// Creates a runner.
    public init(locale: Locale = Locale(identifier: "en-US"), addsPunctuation: Bool = false,
                contextualStrings: [String] = [], reportsPartialResults: Bool = true) {
        self.locale = locale
        self.addsPunctuation = addsPunctuation
        self.contextualStrings = contextualStrings
        self.reportsPartialResults = reportsPartialResults
    }

    /// Recognizes `url` through `path`.
    /// - Throws: `MigrationError` (`.audioUnreadable`) when the file does not
    ///   exist, `.unsupportedLocale` when no recognizer serves the locale.
    public func run(_ path: RecognitionPath, on url: URL) async throws -> RecognitionOutcome {
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw MigrationError(.audioUnreadable, "The audio file \(url.path) does not exist or cannot be read.")
        }
        switch path {
        case .legacy: return try await runLegacy(url)
        case .modern: return try await runModern(url)
        case .legacyOverModern: return try await runLegacyOverModern(url)
        case .modernOverLegacy: return try await runModernOverLegacy(url)
        case .batch: return try await runBatch(url)
        }
    }

    /// The request settings shared by the legacy paths.
    func configure(_ request: SFSpeechRecognitionRequest) {
        request.requiresOnDeviceRecognition = true
        request.addsPunctuation = addsPunctuation
        request.contextualStrings = contextualStrings
        request.shouldReportPartialResults = reportsPartialResults
    }

    /// An error as `domain code` (what golden files record).
    static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        return "\(nsError.domain) \(nsError.code)"
    }

    /// An error's message: its description and, where the face gives one,
    /// the reason (the engine's account of what went wrong and the fix).
    static func message(_ error: any Error) -> String {
        let error = error as NSError
        guard let reason = error.localizedFailureReason, !reason.isEmpty, reason != error.localizedDescription else {
            return error.localizedDescription
        }
        return "\(error.localizedDescription) \(reason)"
    }

    /// The outcome of a path that ended in `error` before any final result.
    static func failure(_ path: RecognitionPath, events: [String], _ error: any Error) -> RecognitionOutcome {
        RecognitionOutcome(path: path, transcript: "", words: [], events: events + ["error"],
                           error: describe(error), errorDescription: message(error))
    }

    /// An outcome from a legacy final result.
    static func outcome(_ path: RecognitionPath, result: SFSpeechRecognitionResult?, events: [String],
                        error: (any Error)?) -> RecognitionOutcome {
        let best = result?.bestTranscription
        let words = best?.segments.map {
            TimedWord(text: $0.substring, startSeconds: $0.timestamp, durationSeconds: $0.duration,
                      confidence: Double($0.confidence))
        } ?? []
        return RecognitionOutcome(path: path, transcript: best?.formattedString ?? "", words: words,
                                  alternatives: result?.transcriptions.dropFirst().map(\.formattedString) ?? [],
                                  events: events, error: error.map(describe),
                                  errorDescription: error.map(message))
    }
}
