import Foundation
import Speech

/// The settings of a recognition request for `ModernBackedSpeechRecognizer`:
/// the same properties as `SFSpeechRecognitionRequest`, mapped onto a
/// `SpeechTranscriber` and its analyzer.
///
/// Use `ModernBackedURLRecognitionRequest` for files and
/// `ModernBackedAudioBufferRecognitionRequest` for appended audio.
///
/// Mapping:
/// - `shouldReportPartialResults` → `SpeechTranscriber.ReportingOption.volatileResults`.
/// - `contextualStrings` → `AnalysisContext.contextualStrings[.general]`.
/// - `addsPunctuation` → applied to the delivered text (the modern
///   transcriber always punctuates; with `false` punctuation is removed).
///
/// Unmapped (kept, no modern counterpart):
/// - `taskHint`: `SpeechTranscriber` has presets, not hints.
/// - `requiresOnDeviceRecognition`: the modern pipeline is always on-device,
///   has no one-minute limit and never reports voice analytics.
/// - `customizedLanguageModel`: only `DictationTranscriber` takes one.
/// - `interactionIdentifier`: deprecated, unused.
open class ModernBackedRecognitionRequest: @unchecked Sendable {
    // @unchecked: like Apple's requests, configured by the app before the task starts.

    /// The type of recognition; kept, not mapped.
    open var taskHint: SFSpeechRecognitionTaskHint = .unspecified
    /// Whether partial results are delivered; default `true`.
    open var shouldReportPartialResults = true
    /// Phrases to favour; passed to the analyzer's context.
    open var contextualStrings: [String] = []
    /// Kept for source compatibility: the modern pipeline is always on-device.
    open var requiresOnDeviceRecognition = false
    /// Whether punctuation stays in the delivered text; default `false`.
    open var addsPunctuation = false

    /// Creates a request with default settings.
    public init() {}

    /// Copies the settings of a legacy request (not its audio).
    public func copySettings(from request: SFSpeechRecognitionRequest) {
        taskHint = request.taskHint
        shouldReportPartialResults = request.shouldReportPartialResults
        contextualStrings = request.contextualStrings
        requiresOnDeviceRecognition = request.requiresOnDeviceRecognition
        addsPunctuation = request.addsPunctuation
    }

    /// Feeds the request's audio to `analyzer`; returns the end of the audio
    /// or nil if there was none. Subclasses override this.
    func analyze(with analyzer: SpeechAnalyzer) async throws -> CMTime? {
        nil
    }

    /// Stops taking audio (the task's `finish()`).
    func stopAudio() {}
}
