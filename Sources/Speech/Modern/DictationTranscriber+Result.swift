import CoreMedia
import Foundation

@available(macOS 26.0, iOS 26.0, *)
extension DictationTranscriber {
    /// A phrase of dictation over a range of audio.
    ///
    /// With `.volatileResults` a range is reported several times: each
    /// volatile result replaces the earlier ones over its range, and the final
    /// result (`isFinal`) replaces them all. Final results are not cumulative:
    /// each covers new audio. Empty text means no recognisable speech, and for
    /// a volatile range also revokes earlier text for it.
    public struct Result: SpeechModuleResult, Sendable, CustomStringConvertible, Equatable, Hashable {
        /// The audio the phrase was recognised from.
        public let range: CMTimeRange
        /// Results from this transcriber are final up to this time.
        public let resultsFinalizationTime: CMTime
        /// Likely transcriptions, most likely first; never empty.
        public let alternatives: [AttributedString]

        /// The most likely transcription (`alternatives.first`).
        public var text: AttributedString {
            alternatives.first ?? AttributedString()
        }

        /// The text, range and finality, for debugging.
        public var description: String {
            let state = isFinal ? "final" : "volatile"
            return "DictationTranscriber.Result(\(state), \(range.start.seconds)–\(range.end.seconds) s: "
                + "\"\(String(text.characters))\", \(alternatives.count) alternative(s))"
        }

        /// Creates a result from a mapped engine hypothesis.
        init(_ transcription: ModernTranscription) {
            range = transcription.range
            resultsFinalizationTime = transcription.finalizationTime
            alternatives = transcription.alternatives.isEmpty ? [AttributedString()] : transcription.alternatives
        }
    }
}
