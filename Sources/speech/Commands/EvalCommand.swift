import Foundation
import SpeechEngine
import SpeechEvaluation

/// `speech eval MANIFEST`: transcribe every clip of a manifest in its
/// language and print WER (CER for Japanese, Chinese, Korean) per set, with
/// Whisper's normalisation, and the real-time factor. With `--score`, score
/// an existing hypotheses file (for instance faster-whisper's) instead; with
/// `--stream`, score the streaming recognizer's committed text beside batch.
struct EvalCommand: SpeechCommand {
    static let help = CommandHelp(
        commandName: "eval",
        overview: "Measure word error rate on a manifest of clips with reference transcripts.",
        usage: "eval <manifest> [--set <name>]... [--hypotheses <out.tsv>] [--score <hyp.tsv> | --stream [--live-passes] [--commit-window fitted|whole]] [--model <name>] [--compute-type <type>] [--beam <N>] [--batch-size <N>] [--padding silence|zeros|both] [--shard <I/N>] [--format text|json]",
        arguments: [("<manifest>", "A manifest.tsv (id, set, language, duration_s, path, reference_text;\npaths relative to the manifest).")],
        commandOptions: [
            .repeated("set", "name", help: "Evaluate only this set."),
            .repeated("exclude-from-english", "name", help: "Leave this set out of the English total (e.g. digit strings)."),
            .value("hypotheses", "out.tsv", help: "Write id<TAB>hypothesis lines to this file."),
            .value("score", "hyp.tsv", help: "Score this id<TAB>hypothesis file instead of transcribing."),
            .flag("stream", help: "Stream each clip through the streaming recognizer (100 ms chunks, as\nfast as it takes them) and show its WER beside batch WER."),
            .flag("live-passes", help: "With --stream: hand over each chunk once the last is consumed, so the\nvolatile passes and the passes they drive (at pauses) run as in\na live stream that keeps up (slower; default: off, mostly the finals run)."),
            DecodingArguments.commitWindowOption,
            .value("face", "batch|legacy|modern|legacy-over-modern|modern-over-legacy", help: "Transcribe through the engine's batch path (default), the legacy face\n(SFSpeechURLRecognitionRequest), the modern face (SpeechAnalyzer over\nan AVAudioFile), as an app would, or either face's code on the other's\npipeline (the migration adapters)."),
            ModelChoice.option,
            ModelChoice.computeTypeOption(streams: true),
            DecodingArguments.beamOption,
            DecodingArguments.threadsOption,
            DecodingArguments.batchSizeOption,
            DecodingArguments.paddingOption,
            .flag("diffs", help: "After the table, show a word diff of every clip with errors."),
            .value("format", "format", help: "Output: text or json (default: text)."),
            ShardOption.option,
        ],
        discussion: """
        Diffs mark deleted reference words [-like this-] and inserted ones {+like this+}.
        Rates are total errors over total reference words of each set. RTF is
        processing time over audio time (below 1 is faster than real time).

        With --stream every clip is recognised twice: streamed, scoring the
        committed text (the final results joined), and in batch. The table
        shows both rates per set, for English and per unit, and their
        difference in points. --hypotheses then writes the streamed text.
        Volatile passes use whisper-tiny.en on English clips when installed.

        EXAMPLES:
          speech eval ../shared/corpus/manifest.tsv --hypotheses ours.tsv
          speech eval ../shared/corpus/manifest.tsv --score faster-whisper.tsv
          speech eval ../shared/corpus/manifest.tsv --stream --hypotheses stream.tsv
          speech eval ../shared/corpus/manifest.tsv --stream --live-passes --set jfk
          speech eval ../shared/corpus/manifest.tsv --face legacy --hypotheses legacy.tsv
        """)

    var manifestPath: String
    var sets: [String]
    var excludedFromEnglish: [String]
    var hypothesesPath: String?
    var scorePath: String?
    var model: ModelChoice
    var computeType: ComputeType
    /// What `--stream` streams with: the faces' type for live audio unless one is named.
    var liveComputeType: ComputeType
    var decoding: DecodingArguments
    var json: Bool
    var showsDiffs: Bool
    var stream: Bool
    /// `--live-passes`: stream stepped, not as fast as the recognizer takes the audio.
    var runsLivePasses: Bool
    /// The Apple face to transcribe through; nil for the batch path.
    var face: FaceTranscription?
    var shard: Shard?

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
        computeType = try ModelChoice.computeType(arguments: arguments)
        liveComputeType = try ModelChoice.computeType(arguments: arguments, unset: .live)
        decoding = try DecodingArguments(arguments: arguments)
        json = try arguments.choice("format", from: ["text", "json"]) == "json"
        showsDiffs = arguments.flag("diffs")
        stream = arguments.flag("stream")
        runsLivePasses = arguments.flag("live-passes")
        if !stream, arguments.value("commit-window") != nil || runsLivePasses {
            throw UsageError("--live-passes and --commit-window go with --stream.")
        }
        face = try arguments.choice("face", from: ["batch"] + FaceTranscription.allCases.map(\.rawValue))
            .flatMap(FaceTranscription.init(rawValue:))
        shard = try ShardOption.shard(from: arguments)
    }

    func validate() throws(UsageError) {
        guard !manifestPath.isEmpty else { throw UsageError("Missing expected argument '<manifest>'.") }
        if scorePath != nil, hypothesesPath != nil {
            throw UsageError("--score reads hypotheses and --hypotheses writes them; give one of the two.")
        }
        if face != nil, stream || scorePath != nil {
            throw UsageError("--face transcribes through a face; it does not go with --stream or --score.")
        }
        if scorePath != nil, stream {
            throw UsageError("--score reads hypotheses and --stream makes them; give one of the two.")
        }
    }

    func run(console: Console) async throws {
        let manifest = try EvaluationManifest(contentsOf: URL(fileURLWithPath: manifestPath))
        let unknown = sets.filter { !manifest.setNames.contains($0) }
        guard unknown.isEmpty else {
            throw UsageError("Unknown set '\(unknown[0])'; the manifest has: \(manifest.setNames.joined(separator: ", ")).")
        }
        let entries = manifest.entries(inSets: sets, shard: shard ?? .whole)
        if stream { return try await runStreaming(entries, console: console) }
        let clips: [EvaluatedClip]
        var modelLoadSeconds: Double?
        if let scorePath {
            clips = try score(entries, hypotheses: HypothesisFile(contentsOf: URL(fileURLWithPath: scorePath)),
                              console: console)
        } else if let face {
            console.log("Transcribing \(entries.count) clips through the \(face.rawValue) face.")
            clips = try await transcribe(entries, through: face, console: console)
        } else {
            let clock = ContinuousClock()
            let start = clock.now
            let transcriber = try model.loadTranscriber(computeType: computeType)
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

    private func runStreaming(_ entries: [ManifestEntry], console: Console) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let accurate = try model.loadTranscriber(computeType: computeType)
        let live = liveComputeType == computeType ? accurate : try model.loadTranscriber(computeType: liveComputeType)
        let fast = ModelCache.shared.volatileTranscriber(language: "en")
        let loadSeconds = (clock.now - start).seconds
        console.log(String(format: "Loaded %@ (%@, streams %@)%@ in %.2f s; streaming %d clips.", model.description,
                           computeType.rawValue, liveComputeType.rawValue,
                           fast == nil ? "" : " and whisper-tiny.en (int8)", loadSeconds, entries.count))
        let evaluation = StreamingEvaluation(accurate: accurate, live: live, fastEnglish: fast, decoding: decoding,
                                             pacing: runsLivePasses ? .stepped : .fast)
        let output = try hypothesesPath.map { try HypothesisWriter(path: $0) }
        var results: [StreamingEvaluation.ClipResult] = []
        for (index, entry) in entries.enumerated() {
            if model.isEnglishOnly, entry.language != "en" {
                console.log("[\(index + 1)/\(entries.count)] \(entry.id): skipped (\(model) is English-only)")
                continue
            }
            let result = try await evaluation.evaluate(entry)
            results.append(result)
            try output?.append(id: entry.id, hypothesis: result.stream.hypothesis)
            console.log(String(format: "[%d/%d] %@  %@ stream %.1f%% batch %.1f%%  %.2f s + %.2f s",
                               index + 1, entries.count, entry.id, result.stream.score.unit.rateName,
                               result.stream.score.counts.rate * 100, result.batch.score.counts.rate * 100,
                               result.stream.processingSeconds ?? 0, result.batch.processingSeconds ?? 0))
        }
        let comparison = StreamingComparison(clips: results, excludedFromEnglishTotal: Set(excludedFromEnglish))
        if json {
            console.writeOutput(try JSONOutput.encode(StreamingEvaluationDocument(
                comparison: comparison, modelLoadSeconds: loadSeconds,
                volatileModel: fast == nil ? nil : ModelName.whisperTinyEn.rawValue)))
        } else {
            console.writeOutput(comparison.table)
            if showsDiffs { console.writeOutput(Self.diffs(of: comparison.stream.clips)) }
        }
    }

    /// Scores one clip's hypothesis as every mode of eval does.
    static func scoredClip(_ entry: ManifestEntry, hypothesis: String, sampleCount: Int,
                           processingSeconds: Double) -> EvaluatedClip {
        var measured = entry
        if measured.durationSeconds == nil { measured.durationSeconds = Double(sampleCount) / AudioDecoder.sampleRate }
        let score = TranscriptScorer().score(reference: entry.referenceText, hypothesis: hypothesis,
                                             languageTag: entry.languageTag)
        return EvaluatedClip(entry: measured, hypothesis: hypothesis, score: score, processingSeconds: processingSeconds)
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
            let clip = Self.scoredClip(entry, hypothesis: transcript.text, sampleCount: samples.count,
                                       processingSeconds: seconds)
            let clipScore = clip.score
            clips.append(clip)
            try output?.append(id: entry.id, hypothesis: transcript.text)
            console.log(String(format: "[%d/%d] %@  %@ %.1f%%  %.2f s", index + 1, entries.count, entry.id,
                               clipScore.unit.rateName, clipScore.counts.rate * 100, seconds))
        }
        return clips
    }

    /// Transcribes each clip through an Apple face, as `transcribe(_:with:console:)` does through the engine.
    func transcribe(_ entries: [ManifestEntry], through face: FaceTranscription,
                    console: Console) async throws -> [EvaluatedClip] {
        let output = try hypothesesPath.map { try HypothesisWriter(path: $0) }
        let clock = ContinuousClock()
        var clips: [EvaluatedClip] = []
        for (index, entry) in entries.enumerated() {
            let start = clock.now
            let hypothesis = try await face.transcribe(entry.audioURL, locale: Locale(identifier: entry.languageTag))
            let seconds = (clock.now - start).seconds
            let sampleCount = Int((entry.durationSeconds ?? 0) * AudioDecoder.sampleRate)
            let clip = Self.scoredClip(entry, hypothesis: hypothesis, sampleCount: sampleCount, processingSeconds: seconds)
            clips.append(clip)
            try output?.append(id: entry.id, hypothesis: hypothesis)
            console.log(String(format: "[%d/%d] %@  %@ %.1f%%  %.2f s", index + 1, entries.count, entry.id,
                               clip.score.unit.rateName, clip.score.counts.rate * 100, seconds))
        }
        return clips
    }
}
