import Foundation

@available(macOS 26.0, iOS 26.0, *)
extension SpeechTranscriber {
    /// A named combination of transcription, reporting and attribute options.
    ///
    /// Pass one to `init(locale:preset:)`. You can define presets of your own
    /// in an extension of this type.
    public struct Preset: Sendable, Equatable, Hashable {
        /// How text is transcribed.
        public var transcriptionOptions: Set<TranscriptionOption>
        /// Which results are reported.
        public var reportingOptions: Set<ReportingOption>
        /// Which attributes results carry.
        public var attributeOptions: Set<ResultAttributeOption>

        /// Creates a preset from its options.
        public init(transcriptionOptions: Set<TranscriptionOption>,
                    reportingOptions: Set<ReportingOption>,
                    attributeOptions: Set<ResultAttributeOption>) {
            self.transcriptionOptions = transcriptionOptions
            self.reportingOptions = reportingOptions
            self.attributeOptions = attributeOptions
        }

        /// Basic, accurate transcription: final results only.
        public static let transcription = Preset(
            transcriptionOptions: [], reportingOptions: [], attributeOptions: [])

        /// Accurate transcription with alternatives, for editing suggestions.
        public static let transcriptionWithAlternatives = Preset(
            transcriptionOptions: [], reportingOptions: [.alternativeTranscriptions], attributeOptions: [])

        /// Accurate transcription with alternatives and audio time ranges.
        public static let timeIndexedTranscriptionWithAlternatives = Preset(
            transcriptionOptions: [], reportingOptions: [.alternativeTranscriptions],
            attributeOptions: [.audioTimeRange])

        /// Immediate transcription of live audio: volatile and fast results.
        public static let progressiveTranscription = Preset(
            transcriptionOptions: [], reportingOptions: [.volatileResults, .fastResults], attributeOptions: [])

        /// Immediate transcription of live audio with audio time ranges.
        public static let timeIndexedProgressiveTranscription = Preset(
            transcriptionOptions: [], reportingOptions: [.volatileResults, .fastResults],
            attributeOptions: [.audioTimeRange])
    }

    /// Options that change the transcribed text.
    public enum TranscriptionOption: CaseIterable, Sendable, Equatable, Hashable {
        /// Transcribe expletives with asterisks replacing all but their first letter.
        /// - Note: On Linux a fixed English word list is masked.
        case etiquetteReplacements
    }

    /// Options that change which results are reported.
    public enum ReportingOption: CaseIterable, Sendable, Equatable, Hashable {
        /// Report tentative (volatile) results in addition to final ones.
        /// - Note: On Linux the engine re-decodes the growing utterance about
        ///   every half second (a quarter second with `fastResults`).
        case volatileResults
        /// Include alternative transcriptions, most likely first.
        /// - Note: On Linux these are the beam-search n-best list (up to three).
        case alternativeTranscriptions
        /// Lower latency at some cost in accuracy.
        /// - Note: On Linux this selects greedy decoding and more frequent
        ///   volatile updates.
        case fastResults
    }

    /// Attributes added to the runs of result text.
    public enum ResultAttributeOption: CaseIterable, Sendable, Equatable, Hashable {
        /// Add `AttributeScopes.SpeechAttributes.TimeRangeAttribute` runs.
        case audioTimeRange
        /// Add `AttributeScopes.SpeechAttributes.ConfidenceAttribute` runs.
        case transcriptionConfidence
    }
}
