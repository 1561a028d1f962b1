import AVFoundation
import CoreMedia
import Foundation

/// A module that transcribes speech to text, for general-purpose and
/// long-form audio (lectures, meetings, conversations).
///
/// Create one for a locale, add it to a `SpeechAnalyzer`, and read
/// `results`. Install its assets first with `AssetInventory`.
/// - Note: On Linux the transcription comes from a Whisper model run by
///   SpeechCompat's engine; the model is chosen by the locale's language.
///   `isAvailable` is `true` unless the environment variable
///   `SPEECHCOMPAT_SPEECHTRANSCRIBER_UNAVAILABLE` is `1`, which lets apps
///   exercise their `DictationTranscriber` fallback.
@available(macOS 26.0, iOS 26.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public final class SpeechTranscriber: LocaleDependentSpeechModule {
    /// How the analyzer should run this module.
    let settings: TranscriberSettings
    /// The result channel behind `results`.
    let resultOutput: ModuleOutput<Result>
    /// The recognition pipeline underneath (the engine unless SpeechMigration
    /// chose another).
    package let pipeline = TranscriberPipeline()

    /// Creates a transcriber for a locale with a preset's options.
    public convenience init(locale: Locale, preset: Preset) {
        self.init(locale: locale, transcriptionOptions: preset.transcriptionOptions,
                  reportingOptions: preset.reportingOptions, attributeOptions: preset.attributeOptions)
    }

    /// Creates a transcriber for a locale with the given options.
    /// - Note: On Linux an unsupported locale is accepted here, as on Apple
    ///   platforms; analysis with it fails with `SFSpeechError.Code.noModel`.
    public init(locale: Locale,
                transcriptionOptions: Set<TranscriptionOption>,
                reportingOptions: Set<ReportingOption>,
                attributeOptions: Set<ResultAttributeOption>) {
        var settings = TranscriberSettings(locale: locale)
        settings.masksExpletives = transcriptionOptions.contains(.etiquetteReplacements)
        settings.reportsVolatileResults = reportingOptions.contains(.volatileResults)
        settings.reportsAlternatives = reportingOptions.contains(.alternativeTranscriptions)
        settings.prefersLowLatency = reportingOptions.contains(.fastResults)
        settings.attributesTimeRanges = attributeOptions.contains(.audioTimeRange)
        settings.attributesConfidence = attributeOptions.contains(.transcriptionConfidence)
        self.settings = settings
        resultOutput = ModuleOutput(transcription: { Result($0) })
    }

    /// Whether this device can run the transcriber.
    /// - Note: On Linux always `true`, unless
    ///   `SPEECHCOMPAT_SPEECHTRANSCRIBER_UNAVAILABLE=1` is set.
    public static var isAvailable: Bool {
        ProcessInfo.processInfo.environment["SPEECHCOMPAT_SPEECHTRANSCRIBER_UNAVAILABLE"] != "1"
    }

    /// Every locale the transcriber supports, including locales whose assets
    /// must still be downloaded; empty if the transcriber is unavailable.
    public static var supportedLocales: [Locale] {
        get async { isAvailable ? ModernLocales.supportedLocales : [] }
    }

    /// A supported locale equivalent to `locale` (same language, preferring
    /// the same region, then an installed one), or `nil`.
    public static func supportedLocale(equivalentTo locale: Locale) async -> Locale? {
        guard isAvailable else { return nil }
        return ModernLocales.supportedLocale(equivalentTo: locale)
    }

    /// The supported locales whose assets are installed on this device.
    public static var installedLocales: [Locale] {
        get async { isAvailable ? ModernLocales.installedLocales : [] }
    }

    /// The locale this transcriber was created with.
    public final var selectedLocales: [Locale] { [settings.locale] }

    /// The formats the transcriber accepts, best first; empty until the
    /// assets of its locale are installed.
    /// - Note: On Linux: 16 kHz mono Int16, then 16 kHz mono Float32.
    public final var availableCompatibleAudioFormats: [AVAudioFormat] {
        get async { ModernAudioFormats.compatibleFormats(locale: settings.locale) }
    }

    /// The transcription results, in order; ends when the analyzer finishes
    /// and throws if analysis fails. The same sequence on every access.
    public final var results: some Sendable & AsyncSequence<Result, any Error> {
        resultOutput.stream
    }
}

@available(macOS 26.0, iOS 26.0, *)
extension SpeechTranscriber: AnalyzerModule {
    var role: ModuleRole { .transcriber(settings) }
    var output: any ModuleResultChannel { resultOutput }
    var pipelineFactory: RecognitionSessionFactory? { pipeline.factory }
}
