import Foundation
import SpeechEngine

/// `speech bench FILE`: time model loading and repeated transcription of
/// one file, and report the real-time factor and peak memory.
struct BenchCommand: SpeechCommand {
    static let help = CommandHelp(
        commandName: "bench",
        overview: "Benchmark model load time, transcription wall time, real-time factor and peak memory.",
        usage: "bench <file> [--runs <N>] [--beam <N>] [--threads <N>] [--batch-size <N>] [--padding silence|zeros|both] [--model <name>] [--compute-type <type>] [--language xx|auto] [--against faster-whisper | --stream [--realtime|--fast] [--rss-every <seconds>] [--volatile-window fitted|whole] [--commit-window fitted|whole] [--no-final-at-pause] [--no-pause-drafts] [--no-expected-text] [--no-settled-volatile] [--no-batch]] [--format text|json]",
        arguments: [("<file>", "The audio file to transcribe in every run.")],
        commandOptions: [
            .value("runs", "N", help: "Timed runs (default: 3; with --stream, 1: each stream is paired with its\nown decode of the last 2 s, and N streams print min and median)."),
            DecodingArguments.beamOption,
            DecodingArguments.threadsOption,
            DecodingArguments.batchSizeOption,
            DecodingArguments.paddingOption,
            ModelChoice.option,
            ModelChoice.computeTypeOption(streams: true),
            DecodingArguments.languageOption,
            .value("against", "engine", help: "Compare with faster-whisper in the same run: ours window by window and\nbatched, faster-whisper float32, int8 and int8 batched, greedy and beam 5\n(--beam: that width only), --runs alternating rounds, each run in its own\nprocess; prints min/median ratios, peak RSS and our stage breakdown.\nNeeds python3 with faster-whisper 1.2.1 (Scripts/setup.sh --benchmarks)."),
            .flag("stream", help: "Benchmark live recognition: feed the file in 100 ms chunks to the streaming recognizer."),
            .flag("realtime", help: "With --stream: pace the chunks to real time (latencies as a live user sees them)."),
            .flag("fast", help: "With --stream: feed as fast as possible (the default; measures throughput)."),
            .value("rss-every", "seconds", help: "With --stream: measure RSS every this many seconds of audio\n(default: 300)."),
            .value("volatile-window", "window", help: "With --stream: what volatile passes encode: fitted (the buffered audio\nplus 5.12 s, the default) or whole (a 30 s window each time)."),
            DecodingArguments.commitWindowOption,
            .flag("final-at-pause", help: "With --stream: decode the final when the speaker pauses, ready if the\nutterance ends there (default: on).", onByDefault: true),
            .flag("pause-drafts", help: "With --stream: when the speaker goes on after a pause, confirm the pause's\nclosed segments, drop their audio and start the next pass from the rest (default: on).", onByDefault: true),
            .flag("expected-text", help: "With --stream: each volatile pass checks the last one's text in one decoder\npass and decodes step by step only where it differs (default: on).", onByDefault: true),
            .flag("settled-volatile", help: "With --stream: volatile words two passes in a row heard the same, 1.5 s before\nthe audio's end, stay as they are, and later volatile passes hear only the audio after them (default: on).", onByDefault: true),
            .flag("batch", help: "With --stream: also transcribe the file in batch and score the stream\nagainst it (default: on).", onByDefault: true),
            .value("format", "format", help: "Output: text or json (default: text)."),
        ],
        discussion: """
        Wall time covers transcription of already decoded audio (as
        faster-whisper's benchmark does); the real-time factor is the fastest
        run's time over the audio's duration. The stage breakdown of the
        fastest run says where the time went: speech detection, log-mel,
        encoder, cross-attention keys/values, language detection, and
        decoding, split into the prompt's forward pass, the one-token steps
        (per call: one decoder pass for every beam of every chunk), the logits
        projection and the search's bookkeeping.

        With --against faster-whisper it runs Benchmarks/faster_whisper/bench.py
        (found in the current directory's Benchmarks/, next to this executable's
        checkout, or at $SPEECHCOMPAT_FASTER_WHISPER_BENCH) for faster-whisper's
        side, on the same model folder.

        With --stream it reports the time from speech onset to the first
        volatile result (--realtime), the interval between updates, the time
        from end of input to the final result beside the time the input's last
        2 s take to decode alone, the real-time factor, peak RSS, the process's
        CPU seconds per audio minute (and the batch pass's, with their ratio),
        the WER of the last volatile result before each final against that
        final, and the WER of the committed transcript against the batch
        transcript. It then takes the stream's compute apart by kind of pass
        (volatile, at a pause, commit) with each model's stage breakdown.
        Volatile results come from whisper-tiny.en (int8) for English when installed.
        It also prints an RSS timeline: resident memory at the start, every
        --rss-every seconds of audio processed and at the end of the stream
        (before the batch pass), so a long stream shows whether memory stays
        flat. The file is read block by block as it is fed, as a microphone
        would deliver it, so the figures hold no copy of the whole input.
        --fast keeps at most 30 s of audio queued ahead of the recognizer.

        EXAMPLES:
          speech bench two-minutes.wav --batch-size 8 --beam 1
          speech bench two-minutes.wav --against faster-whisper --runs 3
          speech bench --stream clip.wav --realtime
          speech bench --stream one-hour.wav --fast --rss-every 300 --no-batch
        """)

    var file: String
    var runs: Int
    var decoding: DecodingArguments
    var model: ModelChoice
    var computeType: ComputeType
    var json: Bool
    var stream: Bool
    var realtime: Bool
    var residentSampleIntervalSeconds: Int
    var comparesWithBatch: Bool
    /// `--volatile-window whole` turns off fitted volatile windows.
    var fitsVolatileWindowToAudio: Bool
    /// `--no-final-at-pause` decodes finals only at endpoints and the end of input.
    var decodesFinalAtPause: Bool
    /// `--no-pause-drafts` drops the pass at a pause when the speaker goes on.
    var keepsPausePass: Bool
    /// `--no-expected-text` decodes every volatile pass token by token.
    var expectsLastVolatileText: Bool
    /// `--no-settled-volatile`: every volatile pass hears all the audio not final yet.
    var settlesVolatileWords: Bool
    /// `--against faster-whisper`.
    var comparesWithFasterWhisper: Bool
    /// Beam widths of the comparison: `--beam`'s, else greedy and 5.
    var comparisonBeams: [Int]

    init(arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count <= 1 else {
            throw UsageError("Unexpected argument '\(arguments.positionals[1])': bench takes one file.")
        }
        file = arguments.positionals.first ?? ""
        // A stream run takes the audio's length in realtime mode: one unless asked.
        runs = try arguments.integer("runs", in: 1...100) ?? (arguments.flag("stream") ? 1 : 3)
        decoding = try DecodingArguments(arguments: arguments)
        model = try ModelChoice(arguments: arguments)
        // A stream benchmarks live audio, which the faces decode in `ComputeType.live`.
        computeType = try ModelChoice.computeType(arguments: arguments,
                                                  unset: arguments.flag("stream") ? .live : .default)
        json = try arguments.choice("format", from: ["text", "json"]) == "json"
        stream = arguments.flag("stream")
        realtime = arguments.flag("realtime")
        if !stream && (realtime || arguments.flag("fast")) {
            throw UsageError("--realtime and --fast go with --stream.")
        }
        if realtime && arguments.flag("fast") { throw UsageError("Choose one of --realtime and --fast.") }
        residentSampleIntervalSeconds = try arguments.integer("rss-every", in: 1...86_400) ?? 300
        comparesWithBatch = arguments.flag("batch", default: true)
        fitsVolatileWindowToAudio = try arguments.choice("volatile-window", from: ["fitted", "whole"]) != "whole"
        decodesFinalAtPause = arguments.flag("final-at-pause", default: true)
        keepsPausePass = arguments.flag("pause-drafts", default: true)
        expectsLastVolatileText = arguments.flag("expected-text", default: true)
        settlesVolatileWords = arguments.flag("settled-volatile", default: true)
        if !stream && (arguments.value("rss-every") != nil || !comparesWithBatch || !decodesFinalAtPause
                       || !keepsPausePass || !expectsLastVolatileText || !settlesVolatileWords || arguments.value("volatile-window") != nil
                       || arguments.value("commit-window") != nil) {
            throw UsageError("--rss-every, --volatile-window, --commit-window, --no-final-at-pause, --no-pause-drafts, --no-expected-text, --no-settled-volatile and --no-batch go with --stream.")
        }
        comparesWithFasterWhisper = try arguments.choice("against", from: ["faster-whisper"]) != nil
        comparisonBeams = arguments.value("beam") == nil ? [1, 5] : [decoding.beamSize]
        if comparesWithFasterWhisper && stream { throw UsageError("--against compares file transcription; leave out --stream.") }
        if stream && decoding.batchSize != nil { throw UsageError("--batch-size is for files; live recognition decodes its own windows.") }
    }

    func validate() throws(UsageError) {
        guard !file.isEmpty else { throw UsageError("Missing expected argument '<file>'.") }
    }

    /// What one benchmark measured.
    struct Result: Encodable, Sendable {
        var file: String
        var model: String
        var beamSize: Int
        /// Chunks decoded at once, nil for window by window.
        var batchSize: Int?
        var threads: Int?
        /// `--compute-type`, and what the matrix products ran on (OpenBLAS's
        /// kernel family and the int8 kernels' path): figures from machines
        /// whose kernels differ are not comparable.
        var computeType: String
        var blasCore: String
        /// "openblas", or "avx512" / "avx2" where the engine's own tiles replace OpenBLAS's generic kernels.
        var floatProducts: String
        var int8Kernels: String
        var audioSeconds: Double
        var modelLoadSeconds: Double
        var wallSeconds: TimingSummary
        var realTimeFactor: Double
        var peakResidentMegabytes: Double
        var text: String
        /// Where the fastest run's time went.
        var stages: [StageBreakdown.Row]
    }

    func run(console: Console) async throws {
        if MatrixBackend.blasIsGenericOnThisCPU {
            let products = MatrixBackend.floatProducts == "openblas"
                ? "float products run far below the CPU's speed"
                : "the engine multiplies on its own \(MatrixBackend.floatProducts.uppercased()) tiles instead (sgemv stays OpenBLAS's)"
            console.log("note: OpenBLAS does not know this CPU and runs its generic Prescott kernels; \(products). A newer OpenBLAS, or OPENBLAS_CORETYPE=Haswell|SkylakeX, picks faster ones.")
        }
        if stream { return try await runStreaming(console: console) }
        if comparesWithFasterWhisper { return try runComparison(console: console) }
        let clock = ContinuousClock()
        let loadStart = clock.now
        let transcriber = try model.loadTranscriber(computeType: computeType)
        let loadSeconds = (clock.now - loadStart).seconds
        let samples = try AudioDecoder.decode(contentsOf: URL(fileURLWithPath: file))
        let audioSeconds = Double(samples.count) / AudioDecoder.sampleRate
        var options = decoding.options()
        options.wordTimestamps = false
        var times: [Double] = []
        var text = ""
        var fastest: StageBreakdown?
        for index in 0..<runs {
            let stages = StageClock()
            let start = clock.now
            text = try transcriber.transcribe(samples: samples, options: options, clock: stages).text
            times.append((clock.now - start).seconds)
            if times[index] <= times.min()! { fastest = StageBreakdown(clock: stages, wallSeconds: times[index]) }
            console.log(String(format: "run %d/%d: %.3f s", index + 1, runs, times[index]))
        }
        let timing = TimingSummary(runs: times)
        let result = Result(file: file, model: model.description, beamSize: decoding.beamSize,
                            batchSize: decoding.batchSize, threads: decoding.threadCount,
                            computeType: computeType.rawValue, blasCore: MatrixBackend.blasCore,
                            floatProducts: MatrixBackend.floatProducts, int8Kernels: MatrixBackend.int8Kernels, audioSeconds: audioSeconds, modelLoadSeconds: loadSeconds,
                            wallSeconds: timing,
                            realTimeFactor: audioSeconds > 0 ? timing.minimum / audioSeconds : 0,
                            peakResidentMegabytes: Double(ResourceUsage.peakResidentBytes()) / 1_048_576,
                            text: text, stages: fastest?.rows ?? [])
        console.writeOutput(json ? try JSONOutput.encode(result) : Self.table(result))
    }

    private func runStreaming(console: Console) async throws {
        let accurate = try model.loadTranscriber(computeType: computeType)
        var options = decoding.streamingOptions()
        if options.transcription.language == nil { options.transcription.language = "en" }
        options.fitsVolatileWindowToAudio = fitsVolatileWindowToAudio
        options.decodesFinalAtPause = decodesFinalAtPause
        options.keepsPausePassWhenSpeechResumes = keepsPausePass
        options.volatilePassesExpectTheLastText = expectsLastVolatileText
        options.settlesVolatileWords = settlesVolatileWords
        let fast = ModelCache.shared.volatileTranscriber(language: options.transcription.language)
        // The machines' speed drifts within minutes: each run's final is set
        // against its own run's decode of the last 2 s, and the batch pass
        // (the slowest part) runs once, after the last stream.
        var results: [StreamingBenchmark.Result] = []
        for index in 0..<runs {
            // The stream reads the file as it goes; a file it cannot open fails the stream at once.
            let benchmark = StreamingBenchmark(source: .file(URL(fileURLWithPath: file)), realtime: realtime,
                                               options: options, accurate: accurate, fast: fast,
                                               residentSampleIntervalSeconds: Double(residentSampleIntervalSeconds),
                                               comparesWithBatch: comparesWithBatch && index == runs - 1)
            let result = try await benchmark.run()
            if runs > 1 { console.log("run \(index + 1)/\(runs): " + StreamingBenchmark.runLine(result)) }
            results.append(result)
        }
        guard runs > 1, let last = results.last else {
            return console.writeOutput(json ? try JSONOutput.encode(results[0]) : StreamingBenchmark.table(results[0]))
        }
        let summary = StreamingBenchmark.Runs(results)
        console.writeOutput(json ? try JSONOutput.encode(summary) : StreamingBenchmark.table(last) + "\n" + summary.table)
    }

    static func table(_ result: Result) -> String {
        """
        file               \(result.file)
        model              \(result.model), beam \(result.beamSize), threads \(result.threads.map(String.init) ?? "default")\(result.batchSize.map { ", batch \($0)" } ?? "")
        kernels            \(result.computeType); OpenBLAS \(result.blasCore), float products \(result.floatProducts), int8 \(result.int8Kernels)
        audio              \(String(format: "%.2f s", result.audioSeconds))
        model load         \(String(format: "%.3f s", result.modelLoadSeconds))
        wall time min      \(String(format: "%.3f s", result.wallSeconds.minimum))
        wall time median   \(String(format: "%.3f s", result.wallSeconds.median))
        real-time factor   \(String(format: "%.4f", result.realTimeFactor))
        peak RSS           \(String(format: "%.1f MB", result.peakResidentMegabytes))

        stages of the fastest run:
        \(StageBreakdown(rows: result.stages, wallSeconds: result.wallSeconds.minimum).table)

        """
    }
}
