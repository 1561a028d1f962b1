import Foundation
import SpeechEngine
import SpeechService

/// Renders transcripts in the format `speech transcribe --format` names.
struct TranscriptFormatter: Sendable {
    var format: OutputFormat
    /// Include per-word timing and confidence.
    var includesWords: Bool

    /// One file's result, ready for output.
    struct FileResult: Sendable {
        var path: String
        var transcript: Transcript
    }

    /// The output for all `results`. Text output names each file when there
    /// are several; JSON is one object for one file and an array otherwise;
    /// subtitles are for one file (the command checks that).
    func render(_ results: [FileResult]) throws -> String {
        switch format {
        case .text:
            return results.map { result in
                let body = text(of: result.transcript)
                return results.count > 1 ? "==> \(result.path) <==\n\(body)" : body
            }.joined(separator: "\n")
        case .json:
            let documents = results.map { TranscriptDocument($0.transcript, path: $0.path, includesWords: includesWords) }
            return results.count == 1 ? try JSONOutput.encode(documents[0]) : try JSONOutput.encode(documents)
        case .srt:
            return results.map { SubtitleWriter.srt(SubtitleWriter.cues(of: $0.transcript, words: includesWords)) }
                .joined(separator: "\n")
        case .vtt:
            return results.map { SubtitleWriter.vtt(SubtitleWriter.cues(of: $0.transcript, words: includesWords)) }
                .joined(separator: "\n")
        }
    }

    /// Plain text: the transcript, or with words one
    /// `[start → end] word (confidence)` line each.
    func text(of transcript: Transcript) -> String {
        guard includesWords else { return transcript.text + "\n" }
        return transcript.words.map { word in
            String(format: "[%7.2f → %7.2f] %@ (%.2f)\n", word.startSeconds, word.endSeconds,
                   word.word.trimmingCharacters(in: .whitespaces), word.probability)
        }.joined()
    }
}
