import Foundation
import SpeechEngine

/// Writes a transcript as SubRip (`.srt`) or WebVTT (`.vtt`) subtitles: one
/// cue per segment, or per word when words are asked for.
public enum SubtitleWriter {
    /// One subtitle: a time range and its text.
    public struct Cue: Hashable, Sendable {
        /// Start, seconds from the start of the audio.
        public var startSeconds: Double
        /// End, seconds from the start of the audio (never before the start).
        public var endSeconds: Double
        /// The cue's text, trimmed.
        public var text: String

        /// A cue over `startSeconds...endSeconds`.
        public init(startSeconds: Double, endSeconds: Double, text: String) {
            self.startSeconds = startSeconds
            self.endSeconds = endSeconds
            self.text = text
        }
    }

    /// The cues of `transcript`: its segments, or its words if `words` is
    /// true. Empty texts are skipped.
    public static func cues(of transcript: Transcript, words: Bool) -> [Cue] {
        let cues = words
            ? transcript.words.map { Cue(startSeconds: $0.startSeconds, endSeconds: $0.endSeconds, text: $0.word) }
            : transcript.segments.map { Cue(startSeconds: $0.startSeconds, endSeconds: $0.endSeconds, text: $0.text) }
        return cues.compactMap { cue in
            let text = cue.text.trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? nil : Cue(startSeconds: cue.startSeconds, endSeconds: max(cue.endSeconds, cue.startSeconds), text: text)
        }
    }

    /// SubRip: numbered cues, `00:00:01,500 --> 00:00:03,000`, blank line
    /// after each.
    public static func srt(_ cues: [Cue]) -> String {
        cues.enumerated().map { index, cue in
            "\(index + 1)\n\(timestamp(cue.startSeconds, decimalSeparator: ",")) --> "
                + "\(timestamp(cue.endSeconds, decimalSeparator: ","))\n\(cue.text)\n"
        }.joined(separator: "\n")
    }

    /// WebVTT: the `WEBVTT` header, then `00:00:01.500 --> 00:00:03.000` cues.
    public static func vtt(_ cues: [Cue]) -> String {
        "WEBVTT\n\n" + cues.map { cue in
            "\(timestamp(cue.startSeconds, decimalSeparator: ".")) --> "
                + "\(timestamp(cue.endSeconds, decimalSeparator: "."))\n\(cue.text)\n"
        }.joined(separator: "\n")
    }

    /// `HH:MM:SS,mmm` (SubRip) or `HH:MM:SS.mmm` (WebVTT), rounded to the
    /// millisecond; negative and non-finite times become zero.
    public static func timestamp(_ seconds: Double, decimalSeparator: String) -> String {
        let milliseconds = seconds.isFinite ? max(0, Int((seconds * 1000).rounded())) : 0
        let hours = milliseconds / 3_600_000
        let minutes = milliseconds / 60_000 % 60
        let wholeSeconds = milliseconds / 1000 % 60
        return String(format: "%02d:%02d:%02d%@%03d", hours, minutes, wholeSeconds,
                      decimalSeparator, milliseconds % 1000)
    }
}
