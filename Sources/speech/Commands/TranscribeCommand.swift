import Foundation
import SpeechEngine

/// `speech transcribe FILE...`: recognise audio files and print their
/// transcripts as text, JSON or subtitles.
struct TranscribeCommand: SpeechCommand {
    static let help = CommandHelp(
        commandName: "transcribe",
        overview: "Transcribe audio files (WAV, FLAC, OGG/Opus, MP3; any rate and channel count).",
        usage: "transcribe <file>... [--language xx|auto] [--model <name>] [--compute-type <type>] [--beam <N>] [--format text|json|srt|vtt] [--words] [--prompt <text>] [--phrase <phrase>]... [--threads <N>] [--batch-size <N>] [--padding silence|zeros|both]",
        arguments: [("<file>", "Audio files to transcribe.")],
        commandOptions: [
            DecodingArguments.languageOption,
            ModelChoice.option,
            ModelChoice.computeTypeOption,
            DecodingArguments.beamOption,
            .value("format", "format", help: "Output: text, json, srt or vtt (default: text)."),
            .flag("words", help: "Show each word with its start, end and confidence."),
            .value("prompt", "text", help: "Text that comes before the audio: names, spelling, style."),
            .repeated("phrase", "phrase", help: "A phrase to bias recognition toward (e.g. a product name)."),
            DecodingArguments.threadsOption,
            DecodingArguments.batchSizeOption,
            DecodingArguments.paddingOption,
            .flag("punctuation", help: "Keep punctuation in the transcript.", onByDefault: true),
        ],
        discussion: """
        EXAMPLES:
          speech transcribe talk.flac --format srt > talk.srt
          speech transcribe clip.wav --language sv --words
        """)

    var files: [String]
    var decoding: DecodingArguments
    var model: ModelChoice
    var computeType: ComputeType
    var format: OutputFormat
    var words: Bool
    var prompt: String?
    var phrases: [String]
    var punctuation: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        files = arguments.positionals
        decoding = try DecodingArguments(arguments: arguments)
        model = try ModelChoice(arguments: arguments)
        computeType = try ModelChoice.computeType(arguments: arguments)
        format = try arguments.choice("format", from: OutputFormat.names).flatMap(OutputFormat.init(rawValue:)) ?? .text
        words = arguments.flag("words")
        prompt = arguments.value("prompt")
        phrases = arguments.allValues("phrase")
        punctuation = arguments.flag("punctuation", default: true)
    }

    func validate() throws(UsageError) {
        guard !files.isEmpty else { throw UsageError("Missing expected argument '<file>'.") }
        if files.count > 1, format == .srt || format == .vtt {
            throw UsageError("Subtitles (--format \(format.rawValue)) are written for one file at a time; got \(files.count) files.")
        }
        if model.isEnglishOnly, let language = decoding.language, language != "en" {
            throw UsageError("The model '\(model)' knows only English; use --model whisper-base for '\(language)'.")
        }
        if phrases.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw UsageError("A --phrase must not be empty.")
        }
    }

    /// Engine options for this command line.
    var options: TranscriptionOptions {
        var options = decoding.options()
        if model.isEnglishOnly, options.language == nil { options.language = "en" }
        options.initialPrompt = prompt
        options.phrases = phrases
        options.wordTimestamps = words
        options.addsPunctuation = punctuation
        return options
    }

    func run(console: Console) async throws {
        // Fail fast, before the model loads, when a path is not an audio file at
        // all (missing, a loop, a directory, a device, a pipe, empty).
        for file in files { try AudioDecoder.checkAudioFile(at: file) }
        let transcriber = try model.loadTranscriber(computeType: computeType)
        let formatter = TranscriptFormatter(format: format, includesWords: words)
        var results: [TranscriptFormatter.FileResult] = []
        var failures: [String] = []
        for path in files {
            let result: TranscriptFormatter.FileResult
            do {
                result = try transcribe(path, with: transcriber, console: console)
            } catch {
                // One file: its error is the command's. Several: report each, go on.
                guard files.count > 1 else { throw error }
                console.log("Error: \(path): \(SpeechTool.describe(error))")
                failures.append(path)
                continue
            }
            if format == .json {
                results.append(result)
            } else {
                // Text and subtitles stream file by file.
                let labelled = files.count > 1 && format == .text
                console.writeOutput((labelled && !results.isEmpty ? "\n" : "")
                                    + (labelled ? "==> \(path) <==\n" : "") + (try formatter.render([result])))
                results.append(result)
            }
        }
        if format == .json, !results.isEmpty {
            console.writeOutput(try formatter.render(results))
        }
        if !failures.isEmpty {
            throw EngineError(.unreadableAudio, "\(failures.count) of \(files.count) files could not be transcribed.")
        }
    }

    /// Decodes and transcribes one file, with a progress bar for long audio
    /// when standard error is a terminal.
    func transcribe(_ path: String, with transcriber: Transcriber,
                    console: Console) throws -> TranscriptFormatter.FileResult {
        let samples = try AudioDecoder.decode(contentsOf: URL(fileURLWithPath: path))
        let durationSeconds = Double(samples.count) / AudioDecoder.sampleRate
        let bar = ProgressBar(label: (path as NSString).lastPathComponent, console: console,
                              enabled: console.errorIsTerminal && durationSeconds > 30)
        let transcript = try transcriber.transcribe(samples: samples, options: options,
                                                    progress: { bar.update($0) })
        bar.finish()
        return TranscriptFormatter.FileResult(path: path, transcript: transcript)
    }
}
