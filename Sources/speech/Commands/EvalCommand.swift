import Foundation
import SpeechEngine
import SpeechEvaluation

/// `speech eval MANIFEST`: transcribe every clip of a manifest in its
/// language and print WER (CER for Japanese, Chinese, Korean) per set, with
/// Whisper's normalisation, and the real-time factor. With `--score`, score
/// an existing hypotheses file (for instance faster-whisper's) instead.
struct EvalCommand: SpeechCommand {
    static let help = CommandHelp(
        commandName: "eval",
        overview: "Measure word error rate on a manifest of clips with reference transcripts.",
        usage: "eval <manifest> [--set <name>]... [--hypotheses <out.tsv>] [--score <hyp.tsv>] [--model <name>] [--beam <N>] [--format text|json]",
        arguments: [("<manifest>", "A manifest.tsv (id, set, language, duration_s, path, reference_text;\npaths relative to the manifest).")],
        commandOptions: [
            .repeated("set", "name", help: "Evaluate only this set."),
            .repeated("exclude-from-english", "name", help: "Leave this set out of the English total (e.g. digit strings)."),
            .value("hypotheses", "out.tsv", help: "Write id<TAB>hypothesis lines to this file."),
            .value("score", "hyp.tsv", help: "Score this id<TAB>hypothesis file instead of transcribing."),
            ModelChoice.option,
            DecodingArguments.beamOption,
            DecodingArguments.threadsOption,
            .flag("diffs", help: "After the table, show a word diff of every clip with errors."),
            .value("format", "format", help: "Output: text or json (default: text)."),
        ],
        discussion: """
        Diffs mark deleted reference words [-like this-] and inserted ones {+like this+}.
        Rates are total errors over total reference words of each set. RTF is
        processing time over audio time (below 1 is faster than real time).

        EXAMPLES:
          speech eval ../shared/corpus/manifest.tsv --hypotheses ours.tsv
          speech eval ../shared/corpus/manifest.tsv --score faster-whisper.tsv
        """)

    var manifestPath: String
    var sets: [String]
    var excludedFromEnglish: [String]
    var hypothesesPath: String?
    var scorePath: String?
    var model: ModelChoice
    var decoding: DecodingArguments
    var json: Bool
    var showsDiffs: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count <= 1 else {
            throw UsageError("Unexpected argument '\(arguments.positionals[1])': give one manifest.")
        }
        manifestPath = arguments.positionals.first ?? ""
        sets = arguments.allValues("set")
        excludedFromEnglish = arguments.allValues("exclude-from-english")
        hypothesesPath = arguments.value("hypotheses")
        scorePath = arguments.value("score")
        model = try ModelChoice(arguments: arguments)
        decoding = try DecodingArguments(arguments: arguments)
        json = try arguments.choice("format", from: ["text", "json"]) == "json"
        showsDiffs = arguments.flag("diffs")
    }

    func validate() throws(UsageError) {
        guard !manifestPath.isEmpty else { throw UsageError("Missing expected argument '<manifest>'.") }
        if scorePath != nil, hypothesesPath != nil {
            throw UsageError("--score reads hypotheses and --hypotheses writes them; give one of the two.")
        }
    }

    func run(console: Console) async throws {
        let manifest = try EvaluationManifest(contentsOf: URL(fileURLWithPath: manifestPath))
        let unknown = sets.filter { !manifest.setNames.contains($0) }
        guard unknown.isEmpty else {
            throw UsageError("Unknown set '\(unknown[0])'; the manifest has: \(manifest.setNames.joined(separator: ", ")).")
        }
        let entries = manifest.entries(inSets: sets)
        let clips: [EvaluatedClip]
        var modelLoadSeconds: Double?
        if let scorePath {
            clips = try score(entries, hypotheses: HypothesisFile(contentsOf: URL(fileURLWithPath: scorePath)),
                              console: console)
        } else {
            let clock = ContinuousClock()
            let start = clock.now
            let transcriber = try model.loadTranscriber()
            modelLoadSeconds = (clock.now - start).seconds
            console.log(String(format: "Loaded %@ in %.2f s; transcribing %d clips.", model.description,
                               modelLoadSeconds ?? 0, entries.count))
            clips = try transcribe(entries, with: transcriber, console: console)
        }
        let report = EvaluationReport(clips: clips, excludedFromEnglishTotal: Set(excludedFromEnglish))
        if json {
            console.writeOutput(try JSONOutput.encode(EvaluationDocument(report: report, modelLoadSeconds: modelLoadSeconds)))
        } else {
            console.writeOutput(report.table)
            if showsDiffs { console.writeOutput(Self.diffs(of: clips)) }
        }
    }

    /// A word (or character) diff of each clip with errors, worst first.
    static func diffs(of clips: [EvaluatedClip]) -> String {
        let scorer = TranscriptScorer()
        let wrong = clips.filter { $0.score.counts.errorCount > 0 }
            .sorted { $0.score.counts.rate > $1.score.counts.rate }
        return wrong.map { clip in
            let alignment = scorer.alignment(reference: clip.entry.referenceText, hypothesis: clip.hypothesis,
                                             languageTag: clip.entry.languageTag)
            return String(format: "\n%@ (%@ %.1f%%)\n  ", clip.entry.id, clip.score.unit.rateName,
                          clip.score.counts.rate * 100) + alignment.wordDiff + "\n"
        }.joined()
    }

    /// Scores hypotheses read from a file; clips missing from it score as
    /// empty hypotheses (all deletions) and are named on stderr.
    func score(_ entries: [ManifestEntry], hypotheses: HypothesisFile, console: Console) throws -> [EvaluatedClip] {
        let scorer = TranscriptScorer()
        let missing = entries.filter { hypotheses.hypotheses[$0.id] == nil }
        if !missing.isEmpty {
            console.log("Warning: \(missing.count) clips have no hypothesis and count as empty: "
                        + missing.prefix(5).map(\.id).joined(separator: ", ") + (missing.count > 5 ? ", …" : ""))
        }
        return entries.map { entry in
            let hypothesis = hypotheses.hypotheses[entry.id] ?? ""
            return EvaluatedClip(entry: entry, hypothesis: hypothesis,
                                 score: scorer.score(reference: entry.referenceText, hypothesis: hypothesis,
                                                     languageTag: entry.languageTag))
        }
    }

    /// Transcribes each clip in its language, writing hypotheses as it goes
    /// so an interrupted run keeps what it did.
    func transcribe(_ entries: [ManifestEntry], with transcriber: Transcriber,
                    console: Console) throws -> [EvaluatedClip] {
        let scorer = TranscriptScorer()
        let output = try hypothesesPath.map { try HypothesisWriter(path: $0) }
        let clock = ContinuousClock()
        var clips: [EvaluatedClip] = []
        for (index, entry) in entries.enumerated() {
            if model.isEnglishOnly, entry.language != "en" {
                console.log("[\(index + 1)/\(entries.count)] \(entry.id): skipped (\(model) is English-only)")
                continue
            }
            let start = clock.now
            let samples = try AudioDecoder.decode(contentsOf: entry.audioURL)
            let transcript = try transcriber.transcribe(samples: samples, options: decoding.options(language: entry.language))
            let seconds = (clock.now - start).seconds
            var measured = entry
            if measured.durationSeconds == nil { measured.durationSeconds = Double(samples.count) / AudioDecoder.sampleRate }
            let clipScore = scorer.score(reference: entry.referenceText, hypothesis: transcript.text,
                                         languageTag: entry.languageTag)
            clips.append(EvaluatedClip(entry: measured, hypothesis: transcript.text, score: clipScore,
                                       processingSeconds: seconds))
            try output?.append(id: entry.id, hypothesis: transcript.text)
            console.log(String(format: "[%d/%d] %@  %@ %.1f%%  %.2f s", index + 1, entries.count, entry.id,
                               clipScore.unit.rateName, clipScore.counts.rate * 100, seconds))
        }
        return clips
    }
}
