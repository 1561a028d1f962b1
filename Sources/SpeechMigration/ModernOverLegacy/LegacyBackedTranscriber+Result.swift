import CoreMedia
import Foundation
import Speech

extension LegacyBackedTranscriber {
    /// A phrase of transcription over a range of audio: the members of
    /// `SpeechTranscriber.Result` (`range`, `resultsFinalizationTime`,
    /// `alternatives`, `text`, `isFinal`), made from a legacy result.
    public struct Result: SpeechModuleResult, Sendable, Hashable, CustomStringConvertible {
        /// The audio the phrase covers, from the start of the request's audio.
        public let range: CMTimeRange
        /// Results are final up to this time.
        public let resultsFinalizationTime: CMTime
        /// Likely transcriptions, most likely first; never empty.
        public let alternatives: [AttributedString]

        /// The most likely transcription.
        public var text: AttributedString { alternatives.first ?? AttributedString() }

        /// The text, range and finality.
        public var description: String {
            "LegacyBackedTranscriber.Result(\(isFinal ? "final" : "volatile"), \(range.start.seconds)–"
                + "\(range.end.seconds) s: \"\(String(text.characters))\")"
        }

        /// A volatile result from a partial transcription (no confidence, no times).
        init(volatile transcription: SFTranscription, endSeconds: Double) {
            range = CMTimeRange(start: .zero, end: Self.time(endSeconds))
            resultsFinalizationTime = .zero
            alternatives = [AttributedString(transcription.formattedString)]
        }

        /// A final result: the best transcription with timed, confident runs,
        /// the other transcriptions as plain alternatives.
        init(final result: SFSpeechRecognitionResult, processedSeconds: Double) {
            let best = result.bestTranscription
            let lastWordEnd = best.segments.map { $0.timestamp + $0.duration }.max() ?? 0
            let end = Self.time(max(processedSeconds, lastWordEnd))
            range = CMTimeRange(start: .zero, end: end)
            resultsFinalizationTime = end
            alternatives = [Self.attributed(best)]
                + result.transcriptions.dropFirst().map { AttributedString($0.formattedString) }
        }

        /// The formatted string with one run per segment carrying its time
        /// range and confidence; the text between segments has no attributes.
        static func attributed(_ transcription: SFTranscription) -> AttributedString {
            let text = transcription.formattedString as NSString
            var output = AttributedString()
            var cursor = 0
            for segment in transcription.segments {
                let range = segment.substringRange
                guard range.location != NSNotFound, range.location >= cursor,
                      range.location + range.length <= text.length else { continue }
                output += AttributedString(text.substring(with: NSRange(location: cursor, length: range.location - cursor)))
                var word = AttributedString(text.substring(with: range))
                word.audioTimeRange = CMTimeRange(start: time(segment.timestamp), duration: time(segment.duration))
                word.transcriptionConfidence = Double(segment.confidence)
                output += word
                cursor = range.location + range.length
            }
            output += AttributedString(text.substring(from: cursor))
            return output
        }

        /// Seconds as a millisecond-precise `CMTime`.
        static func time(_ seconds: Double) -> CMTime {
            CMTime(value: CMTimeValue((seconds * 1_000).rounded()), timescale: 1_000)
        }
    }
}
