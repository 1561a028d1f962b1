import CoreMedia
import Foundation

@available(macOS 26.0, iOS 26.0, *)
extension AttributeScopes {
    /// The attributes the Speech framework puts on transcription text:
    /// per-run confidence and source-audio time ranges.
    ///
    /// Ask for them with `SpeechTranscriber.ResultAttributeOption` (or the
    /// dictation equivalent) and read them from the runs of `Result.text`:
    /// `for run in result.text.runs { run.audioTimeRange … }`.
    /// - Note: On Linux each run is one recognised word: its time range comes
    ///   from the engine's cross-attention word alignment, its confidence is
    ///   the mean probability of the word's tokens.
    public struct SpeechAttributes: AttributeScope {
        /// The recogniser's confidence in the text of a run.
        public let transcriptionConfidence: ConfidenceAttribute
        /// The range of source audio a run of text was recognised from.
        public let audioTimeRange: TimeRangeAttribute

        /// The confidence of a run's text, from 0 (none) to 1 (certain).
        /// - Note: On Linux values are in (0, 1].
        public struct ConfidenceAttribute: CodableAttributedStringKey {
            /// Confidence between 0 and 1.
            public typealias Value = Double
            /// The attribute's name in archives.
            /// - Note: Apple does not publish this string; ours is our own.
            public static let name = "SpeechTranscriptionConfidence"
        }

        /// The range of source audio, on the analyzer's timeline, that a run of
        /// text was recognised from.
        public struct TimeRangeAttribute: CodableAttributedStringKey {
            /// A time range in the analyzer's input timeline.
            public typealias Value = CMTimeRange
            /// The attribute's name in archives.
            /// - Note: Apple does not publish this string; ours is our own.
            public static let name = "SpeechAudioTimeRange"

            private enum CodingKeys: String, CodingKey { case start, duration }

            /// Encodes the range as its `start` and `duration` times.
            /// - Note: Apple's archive format is not published; this one is
            ///   SpeechCompat's own (each time as value/timescale/flags/epoch).
            public static func encode(_ value: CMTimeRange, to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(value.start, forKey: .start)
                try container.encode(value.duration, forKey: .duration)
            }

            /// Decodes a range written by `encode(_:to:)`.
            public static func decode(from decoder: any Decoder) throws -> CMTimeRange {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                return CMTimeRange(start: try container.decode(CMTime.self, forKey: .start),
                                   duration: try container.decode(CMTime.self, forKey: .duration))
            }
        }

        /// How the scope's attributes decode (Foundation's standard configuration).
        public typealias DecodingConfiguration = AttributeScopeCodableConfiguration
        /// How the scope's attributes encode (Foundation's standard configuration).
        public typealias EncodingConfiguration = AttributeScopeCodableConfiguration
    }
}

@available(macOS 26.0, iOS 26.0, *)
extension AttributeDynamicLookup {
    /// Makes the speech attributes readable as properties of attributed
    /// strings and runs: `run.audioTimeRange`, `run.transcriptionConfidence`.
    public subscript<T: AttributedStringKey>(
        dynamicMember keyPath: KeyPath<AttributeScopes.SpeechAttributes, T>
    ) -> T {
        self[T.self]
    }
}
