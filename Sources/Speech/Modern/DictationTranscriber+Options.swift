import Foundation

@available(macOS 26.0, iOS 26.0, *)
extension DictationTranscriber {
    /// A named combination of content hints and transcription, reporting and
    /// attribute options.
    ///
    /// Pass one to `init(locale:preset:)`. You can define presets of your own
    /// in an extension of this type.
    public struct Preset: Sendable, Equatable, Hashable {
        /// What the audio is like.
        public var contentHints: Set<ContentHint>
        /// How text is transcribed.
        public var transcriptionOptions: Set<TranscriptionOption>
        /// Which results are reported.
        public var reportingOptions: Set<ReportingOption>
        /// Which attributes results carry.
        public var attributeOptions: Set<ResultAttributeOption>

        /// Creates a preset from its options.
        public init(contentHints: Set<ContentHint>,
                    transcriptionOptions: Set<TranscriptionOption>,
                    reportingOptions: Set<ReportingOption>,
                    attributeOptions: Set<ResultAttributeOption>) {
            self.contentHints = contentHints
            self.transcriptionOptions = transcriptionOptions
            self.reportingOptions = reportingOptions
            self.attributeOptions = attributeOptions
        }

        /// A short phrase, without punctuation.
        public static let phrase = Preset(
            contentHints: [.shortForm], transcriptionOptions: [], reportingOptions: [], attributeOptions: [])

        /// About a minute of dictation, punctuated.
        public static let shortDictation = Preset(
            contentHints: [.shortForm], transcriptionOptions: [.punctuation], reportingOptions: [],
            attributeOptions: [])

        /// About a minute of live dictation, transcribed immediately.
        public static let progressiveShortDictation = Preset(
            contentHints: [.shortForm], transcriptionOptions: [.punctuation],
            reportingOptions: [.volatileResults, .frequentFinalization], attributeOptions: [])

        /// More than a minute of dictation, punctuated.
        public static let longDictation = Preset(
            contentHints: [], transcriptionOptions: [.punctuation], reportingOptions: [], attributeOptions: [])

        /// Lengthy live dictation, transcribed immediately.
        public static let progressiveLongDictation = Preset(
            contentHints: [], transcriptionOptions: [.punctuation], reportingOptions: [.volatileResults],
            attributeOptions: [])

        /// Lengthy dictation with each word's audio time range.
        public static let timeIndexedLongDictation = Preset(
            contentHints: [], transcriptionOptions: [.punctuation], reportingOptions: [],
            attributeOptions: [.audioTimeRange])
    }

    /// A hint about the audio, to improve recognition.
    /// - Note: On Linux `shortForm`, `farField` and `atypicalSpeech` are
    ///   recorded but do not change recognition; a customized language model's
    ///   phrases bias decoding, as they do for `SFSpeechRecognizer`.
    public struct ContentHint: Sendable, Equatable, Hashable {
        private let name: String
        /// The custom language model of `customizedLanguage(modelConfiguration:)`.
        let modelConfiguration: SFSpeechLanguageModel.Configuration?

        private init(_ name: String, modelConfiguration: SFSpeechLanguageModel.Configuration? = nil) {
            self.name = name
            self.modelConfiguration = modelConfiguration
        }

        /// The audio is short, about a minute or less.
        public static let shortForm = ContentHint("shortForm")
        /// The speaker is far from the microphone.
        public static let farField = ContentHint("farField")
        /// The speech is atypical (a heavy accent, a lisp, …).
        public static let atypicalSpeech = ContentHint("atypicalSpeech")

        /// Recognition customized with a language model prepared by
        /// `SFSpeechLanguageModel.prepareCustomLanguageModel(for:configuration:)`.
        public static func customizedLanguage(modelConfiguration: SFSpeechLanguageModel.Configuration) -> ContentHint {
            ContentHint("customizedLanguage", modelConfiguration: modelConfiguration)
        }
    }

    /// Options that change the transcribed text.
    public enum TranscriptionOption: CaseIterable, Sendable, Equatable, Hashable {
        /// Punctuate automatically; without it only spoken punctuation is kept.
        /// - Note: On Linux, without it the model's punctuation is removed.
        case punctuation
        /// Turn spoken emoji names into emoji ("smiling emoji" → "🙂").
        /// - Note: On Linux a fixed table of common English emoji names is used.
        case emoji
        /// Transcribe expletives with asterisks replacing all but their first letter.
        /// - Note: On Linux a fixed English word list is masked.
        case etiquetteReplacements
    }

    /// Options that change which results are reported.
    public enum ReportingOption: CaseIterable, Sendable, Equatable, Hashable {
        /// Report tentative (volatile) results in addition to final ones.
        case volatileResults
        /// Include alternative transcriptions, most likely first.
        case alternativeTranscriptions
        /// Finalize more often, at some cost in accuracy.
        /// - Note: On Linux this selects greedy decoding and more frequent
        ///   volatile updates.
        case frequentFinalization
    }

    /// Attributes added to the runs of result text.
    public enum ResultAttributeOption: CaseIterable, Sendable, Equatable, Hashable {
        /// Add `AttributeScopes.SpeechAttributes.TimeRangeAttribute` runs.
        case audioTimeRange
        /// Add `AttributeScopes.SpeechAttributes.ConfidenceAttribute` runs.
        case transcriptionConfidence
    }
}
