import SpeechEngine

/// Options shared by the commands that run recognition: `--language`,
/// `--beam`, `--threads`, `--padding`, turned into `TranscriptionOptions`.
struct DecodingArguments: Sendable, Hashable {
    static let languageOption = OptionSpec.value(
        "language", "xx|auto", help: "Language code (en, sv, ja, …; en-US is read as en), or auto\nto detect it (default: auto).")
    static let beamOption = OptionSpec.value("beam", "N", help: "Beam width; 1 decodes greedily (default: 5).")
    static let threadsOption = OptionSpec.value("threads", "N", help: "Compute threads (default: 2 at most).")
    static let paddingOption = OptionSpec.value(
        "padding", "silence|zeros|both",
        help: "How a window under 30 s is padded: silence (Whisper), zeros (faster-whisper),\nor both for a clip under 30 s, keeping the more confident result\n(default: both; streaming: silence).")

    static let commitWindowOption = OptionSpec.value(
        "commit-window", "window",
        help: "With --stream: what finals and passes at a pause encode: fitted (the\npending audio plus 15 s, the default, in English) or whole (a 30 s window\neach time).")

    static let batchSizeOption = OptionSpec.value(
        "batch-size", "N",
        help: "Batched decoding: split the audio at pauses into chunks of at most 30 s\nand decode N chunks at once, unprompted (a chunk whose text is too short\nfor its length is decoded again with the text before it) (default: off,\nwindow by window).")

    /// ISO 639-1 code, or nil to detect.
    var language: String?
    var beamSize: Int
    var threadCount: Int?
    /// nil: the engine's default for the path (batch or streaming).
    var padding: TranscriptionOptions.ShortWindowPadding?
    /// Chunks decoded at once (`--batch-size`), nil for window-by-window decoding.
    var batchSize: Int?
    /// `--commit-window whole` streams with whole-window finals
    /// (`StreamingOptions.fitsCommitWindowToAudio`); commands without `--stream` never see it set.
    var fitsCommitWindowToAudio: Bool

    /// Reads and checks the options.
    /// - Throws: ``UsageError`` for a malformed or unknown language, or an
    ///   out-of-range number.
    init(arguments: ParsedArguments, defaultBeam: Int = 5) throws(UsageError) {
        beamSize = try arguments.integer("beam", in: 1...16) ?? defaultBeam
        threadCount = try arguments.integer("threads", in: 1...64)
        batchSize = try arguments.integer("batch-size", in: 1...TranscriptionOptions.maximumBatchSize)
        language = try Self.language(arguments.value("language"))
        padding = try arguments.choice("padding", from: TranscriptionOptions.ShortWindowPadding.allCases.map(\.rawValue))
            .flatMap(TranscriptionOptions.ShortWindowPadding.init(rawValue:))
        fitsCommitWindowToAudio = try arguments.choice("commit-window", from: ["fitted", "whole"]) != "whole"
    }

    /// "auto" and nil mean detect; "en-US" means "en".
    static func language(_ text: String?) throws(UsageError) -> String? {
        guard let text, text.lowercased() != "auto" else { return nil }
        let code = text.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        guard WhisperLanguages.codes.contains(code) else {
            throw UsageError("Unknown language '\(text)': use a code Whisper knows (en, es, sv, ja, zh, …) or auto.")
        }
        return code
    }

    /// Engine options with these settings.
    func options(language override: String? = nil) -> TranscriptionOptions {
        var options = TranscriptionOptions()
        options.language = override ?? language
        options.beamSize = beamSize
        options.threadCount = threadCount
        options.batchSize = batchSize
        if let padding { options.shortWindowPadding = padding }
        return options
    }

    /// Streaming options with these settings; `--padding` and `--commit-window` set the commit pass's.
    func streamingOptions(language override: String? = nil) -> StreamingOptions {
        var options = StreamingOptions(transcription: options(language: override))
        // The live path decodes its own windows; batching is for files.
        options.transcription.batchSize = nil
        if let padding { options.commitPadding = padding }
        options.fitsCommitWindowToAudio = fitsCommitWindowToAudio
        return options
    }
}
