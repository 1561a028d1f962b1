/// How `speech transcribe` writes its result.
enum OutputFormat: String, Sendable, CaseIterable {
    /// The transcript as plain text (with `--words`, one timed word a line).
    case text
    /// Everything as JSON: text, language, segments, words, alternatives.
    case json
    /// SubRip subtitles.
    case srt
    /// WebVTT subtitles.
    case vtt

    /// The names `--format` accepts.
    static var names: [String] { allCases.map(\.rawValue) }
}
