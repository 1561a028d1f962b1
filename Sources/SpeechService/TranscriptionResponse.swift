import Foundation
import SpeechEngine

/// A transcript in the shape OpenAI's endpoint answers with, per
/// `response_format`.
enum TranscriptionResponse {
    /// The HTTP answer for `transcript` in `request`'s format.
    static func render(_ transcript: Transcript, for request: TranscriptionRequest) -> HTTPResponse {
        let text = transcript.text.trimmingCharacters(in: .whitespaces)
        switch request.format {
        case .json:
            return .json(Plain(text: text))
        case .text:
            return .text(text + "\n")
        case .srt:
            return .text(SubtitleWriter.srt(SubtitleWriter.cues(of: transcript, words: false)),
                         contentType: "application/x-subrip; charset=utf-8")
        case .vtt:
            return .text(SubtitleWriter.vtt(SubtitleWriter.cues(of: transcript, words: false)),
                         contentType: "text/vtt; charset=utf-8")
        case .verboseJSON:
            return .json(verbose(transcript, request: request))
        }
    }

    /// `{"text": …}`.
    struct Plain: Encodable {
        var text: String
    }

    /// verbose_json: language as Whisper's lowercase English name, duration,
    /// text, and segments and/or words as `timestamp_granularities[]` asked.
    struct Verbose: Encodable {
        var task = "transcribe"
        var language: String
        var duration: Double
        var text: String
        var segments: [VerboseSegment]?
        var words: [VerboseWord]?
    }

    /// One segment of verbose_json, with OpenAI's field names.
    struct VerboseSegment: Encodable {
        var id: Int
        var seek: Int
        var start: Double
        var end: Double
        var text: String
        var tokens: [Int]
        var temperature: Double
        var avg_logprob: Double
        var compression_ratio: Double
        var no_speech_prob: Double
    }

    /// One word of verbose_json.
    struct VerboseWord: Encodable {
        var word: String
        var start: Double
        var end: Double
    }

    static func verbose(_ transcript: Transcript, request: TranscriptionRequest) -> Verbose {
        let segments = transcript.segments.map { segment in
            VerboseSegment(id: segment.id, seek: Int((segment.startSeconds * 100).rounded(.down)),
                           start: rounded(segment.startSeconds), end: rounded(segment.endSeconds), text: segment.text,
                           tokens: segment.tokens, temperature: segment.temperature,
                           avg_logprob: finite(segment.averageLogProbability),
                           compression_ratio: finite(segment.compressionRatio),
                           no_speech_prob: finite(segment.noSpeechProbability))
        }
        let words = transcript.words.map {
            VerboseWord(word: $0.word.trimmingCharacters(in: .whitespaces), start: rounded($0.startSeconds),
                        end: rounded($0.endSeconds))
        }
        return Verbose(language: (WhisperLanguages.names[transcript.language] ?? transcript.language).lowercased(),
                       duration: rounded(transcript.durationSeconds),
                       text: transcript.text.trimmingCharacters(in: .whitespaces),
                       segments: request.wantsSegments ? segments : nil,
                       words: request.wantsWords ? words : nil)
    }

    /// Times to the millisecond, as OpenAI writes them.
    static func rounded(_ seconds: Double) -> Double {
        seconds.isFinite ? (seconds * 1000).rounded() / 1000 : 0
    }

    /// JSON has no infinities: a -inf log-probability (no tokens) becomes a very low finite one.
    static func finite(_ value: Double) -> Double {
        value.isFinite ? value : (value < 0 ? -1e9 : 1e9)
    }
}
