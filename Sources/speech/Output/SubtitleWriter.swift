import Foundation
import SpeechEngine

/// Writes a transcript as SubRip (`.srt`) or WebVTT (`.vtt`) subtitles: one
/// cue per segment, or per word when words are asked for.
enum SubtitleWriter {
    /// One subtitle: a time range and its text.
    struct Cue: Hashable, Sendable {
        var startSeconds: Double
        var endSeconds: Double
        var text: String
    }

    /// The cues of `transcript`: its segments, or its words if `words` is
    /// true. Empty texts are skipped.
    static func cues(of transcript: Transcript, words: Bool) -> [Cue] {
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
    static func srt(_ cues: [Cue]) -> String {
        cues.enumerated().map { index, cue in
            "\(index + 1)\n\(timestamp(cue.startSeconds, decimalSeparator: ",")) --> "
                + "\(timestamp(cue.endSeconds, decimalSeparator: ","))\n\(cue.text)\n"
        }.joined(separator: "\n")
    }

    /// WebVTT: the `WEBVTT` header, then `00:00:01.500 --> 00:00:03.000` cues.
    static func vtt(_ cues: [Cue]) -> String {
        "WEBVTT\n\n" + cues.map { cue in
            "\(timestamp(cue.startSeconds, decimalSeparator: ".")) --> "
                + "\(timestamp(cue.endSeconds, decimalSeparator: "."))\n\(cue.text)\n"
        }.joined(separator: "\n")
    }

    /// `HH:MM:SS,mmm` (SubRip) or `HH:MM:SS.mmm` (WebVTT), rounded to the
    /// millisecond; negative and non-finite times become zero.
    static func timestamp(_ seconds: Double, decimalSeparator: String) -> String {
        let milliseconds = seconds.isFinite ? max(0, Int((seconds * 1000).rounded())) : 0
        let hours = milliseconds / 3_600_000
        let minutes = milliseconds / 60_000 % 60
        let wholeSeconds = milliseconds / 1000 % 60
        return String(format: "%02d:%02d:%02d%@%03d", hours, minutes, wholeSeconds,
                      decimalSeparator, milliseconds % 1000)
    }
}
