import Foundation
import SpeechEngine
import SpeechMigration

/// `speech compare FILE...`: the same audio through the legacy face, the
/// modern face, both migration adapters and the engine's batch decoding
/// (`batch`, what the faces should deliver), compared side by side.
struct CompareCommand: SpeechCommand {
    static let help = CommandHelp(
        commandName: "compare",
        overview: "Compare the legacy face, the modern face, the migration adapters and the engine's batch decoding on the same audio.",
        usage: "compare <file>... [--paths <list>] [--locale <id>] [--punctuation] [--format text|json]",
        arguments: [("<file>", "Audio files (WAV, FLAC, Ogg, MP3).")],
        commandOptions: [
            .value("paths", "list", help: "Comma-separated paths, baseline first (default:\nlegacy,modern,legacy-over-modern,modern-over-legacy,batch)."),
            .value("locale", "id", help: "Locale to recognize (default: en-US)."),
            .flag("punctuation", help: "Keep punctuation in the transcripts (legacy addsPunctuation)."),
            .value("format", "format", help: "Output: text or json (default: text)."),
        ],
        discussion: """
        For every path after the first: WER against the first, a word diff
        ([-baseline-]{+other+}), and the start time and confidence of every word
        both recognized. Transcripts are normalised before scoring (Whisper's
        English normaliser), so case, punctuation and "ten"/"10" do not count.

        EXAMPLES:
          speech compare ../shared/corpus/audio/pocketsphinx/ps_goforward.wav
          speech compare clip.wav --paths legacy,modern --format json
        """)

    var files: [String]
    var paths: [RecognitionPath]
    var locale: String
    var punctuation: Bool
    var json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        files = arguments.positionals
        do {
            paths = try arguments.value("paths").map { try RecognitionPath.parseList($0) } ?? RecognitionPath.allCases
        } catch let error as MigrationError {
            throw UsageError(error.message)
        } catch {
            throw UsageError(String(describing: error))
        }
        locale = arguments.value("locale") ?? "en-US"
        punctuation = arguments.flag("punctuation")
        json = try arguments.choice("format", from: ["text", "json"]) == "json"
    }

    func validate() throws(UsageError) {
        guard !files.isEmpty else { throw UsageError("Missing expected argument '<file>'.") }
        guard !paths.isEmpty else { throw UsageError("--paths names no path.") }
    }

    func run(console: Console) async throws {
        // Before any model loads: a path that is no audio file (missing, a loop,
        // a directory, a device, a pipe, empty) fails with its own message.
        for file in files { try AudioDecoder.checkAudioFile(at: file) }
        let runner = ComparisonRunner(runner: PathRunner(locale: Locale(identifier: locale), addsPunctuation: punctuation),
                                      paths: paths)
        var reports: [ComparisonReport] = []
        for file in files {
            console.log("Comparing \(file) on \(paths.map(\.rawValue).joined(separator: ", ")) …")
            let report = try await runner.compare(URL(fileURLWithPath: file))
            reports.append(report)
            if !json { console.print(report.text + "\n") }
        }
        if json { console.print(String(decoding: try ComparisonReport.json(reports), as: UTF8.self)) }
        // The report is out (it shows what every path did); a path that failed makes the run a failure.
        let failures = reports.flatMap { report in
            report.outcomes.filter(\.failed).map { "\($0.path.rawValue) failed on \(report.file): \($0.errorDescription ?? $0.error ?? "")" }
        }
        if !failures.isEmpty {
            throw MigrationError(.recognitionFailed, failures.joined(separator: "\n"))
        }
    }
}
