import AVFoundation
import CoreMedia
import Foundation

/// A module that transcribes dictation: the same recognition as system
/// dictation and on-device `SFSpeechRecognizer`, with punctuation, emoji and
/// content hints.
///
/// Use it where `SpeechTranscriber` is unavailable, or for short dictated
/// text. Install its assets first with `AssetInventory`.
/// - Note: On Linux both transcribers run the same Whisper engine; they
///   differ only in their options (dictation can remove punctuation, convert
///   spoken emoji names and finalize more often).
@available(macOS 26.0, iOS 26.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public final class DictationTranscriber: LocaleDependentSpeechModule {
    /// How the analyzer should run this module.
    let settings: TranscriberSettings
    /// The content hints the transcriber was created with.
    let contentHints: Set<ContentHint>
    /// The result channel behind `results`.
    let resultOutput: ModuleOutput<Result>
    /// The recognition pipeline underneath (the engine unless SpeechMigration
    /// chose another).
    package let pipeline = TranscriberPipeline()

    /// Creates a dictation transcriber for a locale with a preset's options.
    public convenience init(locale: Locale, preset: Preset) {
        self.init(locale: locale, contentHints: preset.contentHints,
                  transcriptionOptions: preset.transcriptionOptions,
                  reportingOptions: preset.reportingOptions, attributeOptions: preset.attributeOptions)
    }

    /// Creates a dictation transcriber for a locale with the given options.
    /// - Note: On Linux the content hints `shortForm`, `farField` and
    ///   `atypicalSpeech` are recorded but do not change recognition; a
    ///   customized language model's phrases bias decoding.
    public init(locale: Locale,
                contentHints: Set<ContentHint>,
                transcriptionOptions: Set<TranscriptionOption>,
                reportingOptions: Set<ReportingOption>,
                attributeOptions: Set<ResultAttributeOption>) {
        var settings = TranscriberSettings(locale: locale)
        settings.addsPunctuation = transcriptionOptions.contains(.punctuation)
        settings.convertsEmoji = transcriptionOptions.contains(.emoji)
        settings.masksExpletives = transcriptionOptions.contains(.etiquetteReplacements)
        settings.reportsVolatileResults = reportingOptions.contains(.volatileResults)
        settings.reportsAlternatives = reportingOptions.contains(.alternativeTranscriptions)
        settings.prefersLowLatency = reportingOptions.contains(.frequentFinalization)
        settings.attributesTimeRanges = attributeOptions.contains(.audioTimeRange)
        settings.attributesConfidence = attributeOptions.contains(.transcriptionConfidence)
        if let model = contentHints.lazy.compactMap(\.modelConfiguration).first {
            settings.customLanguageModel = CustomLanguageModelSettings(
                languageModel: model.languageModel, vocabulary: model.vocabulary, weight: model.effectiveWeight)
        }
        self.settings = settings
        self.contentHints = contentHints
        resultOutput = ModuleOutput(transcription: { Result($0) })
    }

    /// Every locale dictation supports, including locales whose assets must
    /// still be downloaded.
    public static var supportedLocales: [Locale] {
        get async { ModernLocales.supportedLocales }
    }

    /// A supported locale equivalent to `locale` (same language, preferring
    /// the same region, then an installed one), or `nil`.
    public static func supportedLocale(equivalentTo locale: Locale) async -> Locale? {
        ModernLocales.supportedLocale(equivalentTo: locale)
    }

    /// The supported locales whose assets are installed on this device.
    public static var installedLocales: [Locale] {
        get async { ModernLocales.installedLocales }
    }

    /// The locale this transcriber was created with.
    public final var selectedLocales: [Locale] { [settings.locale] }

    /// The formats the transcriber accepts, best first; empty until the
    /// assets of its locale are installed.
    /// - Note: On Linux: 16 kHz mono Int16, then 16 kHz mono Float32.
    public final var availableCompatibleAudioFormats: [AVAudioFormat] {
        get async { ModernAudioFormats.compatibleFormats(locale: settings.locale) }
    }

    /// The dictation results, in order; ends when the analyzer finishes and
    /// throws if analysis fails. The same sequence on every access.
    public final var results: some Sendable & AsyncSequence<Result, any Error> {
        resultOutput.stream
    }
}

@available(macOS 26.0, iOS 26.0, *)
extension DictationTranscriber: AnalyzerModule {
    var role: ModuleRole { .transcriber(settings) }
    var output: any ModuleResultChannel { resultOutput }
    var pipelineFactory: RecognitionSessionFactory? { pipeline.factory }
}
