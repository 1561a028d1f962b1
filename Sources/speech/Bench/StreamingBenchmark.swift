import Foundation
import SpeechEngine
import SpeechEvaluation

/// `speech bench --stream`: feeds a file to the streaming recognizer in
/// 100 ms chunks, paced to real time or as fast as possible, and measures
/// what a live user sees, and how resident memory moves with audio time.
struct StreamingBenchmark {
    /// The audio; a file is read while it is streamed, so memory figures
    /// show the stream's cost without a copy of the whole input.
    var source: StreamFeeder.Source
    var realtime: Bool
    var options: StreamingOptions
    var accurate: Transcriber
    var fast: Transcriber?
    /// Audio seconds between RSS measurements.
    var residentSampleIntervalSeconds: Double? = 300
    /// Transcribe the whole file in batch afterwards and score the stream against it.
    var comparesWithBatch = true

    /// What one streaming run measured. Latencies are wall-clock seconds.
    struct Result: Encodable, Sendable {
        var mode: String
        var audioSeconds: Double
        /// Audio time at which speech was first detected.
        var speechOnsetSeconds: Double?
        /// From the moment the onset audio was fed to the first volatile result (realtime mode).
        var firstVolatileAfterOnsetSeconds: Double?
        /// Between successive results (volatile or final) while speech goes on.
        var updateInterval: TimingSummary
        /// From `finish()` (end of input) to the last final result.
        var finalAfterEndOfInputSeconds: Double
        /// Audio not yet final when the input ended: what the last final had to decode.
        var pendingAtEndOfInputSeconds: Double
        /// Wall seconds to decode the input's last 2 s alone with the live
        /// commit's options, fastest of 3: goal 3's bound for the final's
        /// delay, measured on this machine in this run.
        var lastTwoSecondsDecodeSeconds: Double?
        /// Per word, from its end in the audio to the first result showing it
        /// and to its final (realtime mode; OpenBench's interim and confirmed latency).
        var wordLatency: WordLatency?
        var realTimeFactor: Double
        /// Process CPU seconds per minute of audio while streaming (the
        /// whole cost of live results, volatile passes included in realtime mode).
        var cpuSecondsPerAudioMinute: Double
        /// WER of the last volatile result before each final against that
        /// final: how far the live text was from what replaced it.
        var volatileVersusFinalWER: Double?
        /// At the end, after the batch pass when there is one.
        var peakResidentMegabytes: Double
        /// Measured up to the end of the stream, before the batch pass.
        var residentTimeline: ResidentTimeline?
        var volatileCount: Int
        var finalCount: Int
        var committedText: String
        /// nil with `--no-batch`.
        var batchText: String?
        /// WER of the committed stream against the batch transcript of the same audio.
        var committedVersusBatchWER: Double?
        /// Process CPU seconds per audio minute of the batch pass over the same audio
        /// (nil with `--no-batch`): what goal 3 compares streaming compute with.
        var batchCPUSecondsPerAudioMinute: Double?
        /// Where the stream's compute went, by kind of pass.
        var passes: [PassRow]
        /// Stage times of the accurate model's passes (pause, commit), and of the fast model's (volatile).
        var accurateStages: StageBreakdown
        var fastStages: StageBreakdown
    }

    /// One kind of pass (`StreamingWorkload.Pass`), summed over the stream.
    struct PassRow: Encodable, Sendable {
        var pass: String
        var passes: Int
        /// Audio handed to the passes: each pass counts its whole buffer.
        var audioSeconds: Double
        var wallSeconds: Double
        var cpuSeconds: Double
        /// Fraction of the stream's process CPU time.
        var cpuShare: Double
    }

    func run() async throws -> Result {
        let workload = StreamingWorkload()
        let recognizer = StreamingRecognizer(accurate: accurate, fast: fast, options: options, workload: workload)
        let feeder = StreamFeeder(pacing: realtime ? .realtime : .fast,
                                  residentSampleIntervalSeconds: residentSampleIntervalSeconds)
        let outcome = try await feeder.run(source, through: recognizer)
        let audioSeconds = outcome.audioSeconds
        // In realtime mode audio time t was fed at wall time start + t.
        var firstVolatileLatency: Double?
        if realtime, let firstVolatile = outcome.firstVolatile, let onset = outcome.speechOnsetSeconds {
            firstVolatileLatency = (firstVolatile - outcome.start).seconds - onset
        }
        let wordLatency = realtime
            ? WordLatency(finals: Array(zip(outcome.finals, outcome.finalSeconds)), volatiles: outcome.volatiles)
            : nil
        let lastTwoSeconds = try Self.decodeSeconds(of: outcome.tailSamples, accurate: accurate, options: options)
        let intervals = zip(outcome.resultTimes, outcome.resultTimes.dropFirst()).map { ($1 - $0).seconds }
        let committed = outcome.committedText
        let language = options.transcription.language ?? "en"
        let scorer = TranscriptScorer()
        var volatileEdits = 0, finalWords = 0
        for pair in outcome.volatileBeforeFinal {
            let counts = scorer.score(reference: pair.final, hypothesis: pair.volatile, languageTag: language).counts
            volatileEdits += counts.errorCount
            finalWords += counts.referenceCount
        }
        var batch: String?
        var wer: Double?
        var batchCPU: Double?
        if comparesWithBatch {
            let samples: [Float]
            switch source {
            case .samples(let given): samples = given
            case .file(let url): samples = try AudioDecoder.decode(contentsOf: url)
            }
            let cpuBefore = ResourceUsage.cpuSeconds()
            let text = try accurate.transcribe(samples: samples, options: options.transcription).text
            batchCPU = (ResourceUsage.cpuSeconds() - cpuBefore) / max(audioSeconds, 1e-9) * 60
            batch = text
            wer = scorer.score(reference: text, hypothesis: committed, languageTag: language).counts.rate
        }
        return Result(
            mode: realtime ? "realtime" : "fast", audioSeconds: audioSeconds,
            speechOnsetSeconds: outcome.speechOnsetSeconds, firstVolatileAfterOnsetSeconds: firstVolatileLatency,
            updateInterval: TimingSummary(runs: intervals),
            finalAfterEndOfInputSeconds: max(0, (outcome.lastFinal - outcome.endOfInput).seconds),
            pendingAtEndOfInputSeconds: max(0, audioSeconds - outcome.committedAtEndOfInputSeconds),
            lastTwoSecondsDecodeSeconds: lastTwoSeconds,
            wordLatency: wordLatency,
            realTimeFactor: outcome.wallSeconds / max(audioSeconds, 1e-9),
            cpuSecondsPerAudioMinute: outcome.cpuSeconds / max(audioSeconds, 1e-9) * 60,
            volatileVersusFinalWER: finalWords > 0 ? Double(volatileEdits) / Double(finalWords) : nil,
            peakResidentMegabytes: Double(ResourceUsage.peakResidentBytes()) / 1_048_576,
            residentTimeline: outcome.residentTimeline,
            volatileCount: outcome.volatileCount, finalCount: outcome.finals.count, committedText: committed,
            batchText: batch, committedVersusBatchWER: wer, batchCPUSecondsPerAudioMinute: batchCPU,
            passes: Self.passRows(workload, streamCPUSeconds: outcome.cpuSeconds),
            accurateStages: Self.stages(workload.accurateStages, workload, passes: [.pause, .commit, .recording]),
            fastStages: Self.stages(workload.fastStages, workload, passes: [.volatile]))
    }

    /// The fastest of three decodes of `samples` alone, as a live commit decodes (nil for no samples).
    static func decodeSeconds(of samples: [Float], accurate: Transcriber, options: StreamingOptions) throws -> Double? {
        guard !samples.isEmpty else { return nil }
        let transcription = options.commitTranscription
        var fastest = Double.infinity
        for _ in 0..<3 {
            let start = ContinuousClock.now
            _ = try accurate.transcribe(samples: samples, options: transcription)
            fastest = min(fastest, (ContinuousClock.now - start).seconds)
        }
        return fastest
    }

    static func passRows(_ workload: StreamingWorkload, streamCPUSeconds: Double) -> [PassRow] {
        let tallies = workload.tallies
        return StreamingWorkload.Pass.allCases.compactMap { pass in
            guard let tally = tallies[pass] else { return nil }
            return PassRow(pass: pass.rawValue, passes: tally.passes, audioSeconds: tally.audioSeconds,
                           wallSeconds: tally.wallSeconds, cpuSeconds: tally.cpuSeconds,
                           cpuShare: streamCPUSeconds > 0 ? tally.cpuSeconds / streamCPUSeconds : 0)
        }
    }

    /// A model's stage times, as shares of its passes' wall time.
    static func stages(_ clock: StageClock, _ workload: StreamingWorkload, passes: [StreamingWorkload.Pass])
        -> StageBreakdown {
        let tallies = workload.tallies
        return StageBreakdown(clock: clock, wallSeconds: passes.compactMap { tallies[$0]?.wallSeconds }.reduce(0, +))
    }

    /// The pass rows as aligned text.
    static func passTable(_ rows: [PassRow]) -> String {
        var lines = ["pass        count   audio s    wall s     CPU s  CPU share"]
        for row in rows {
            lines.append(row.pass.padding(toLength: 10, withPad: " ", startingAt: 0)
                         + String(format: "%7d %9.1f %9.2f %9.2f %9.1f%%", row.passes, row.audioSeconds, row.wallSeconds,
                                  row.cpuSeconds, row.cpuShare * 100))
        }
        return lines.joined(separator: "\n")
    }

    static func table(_ result: Result) -> String {
        func seconds(_ value: Double?) -> String { value.map { String(format: "%.3f s", $0) } ?? "n/a" }
        let wer = result.committedVersusBatchWER.map { String(format: "%.2f%%", $0 * 100) } ?? "not measured (--no-batch)"
        func latency(_ summary: WordLatency.Summary?) -> String {
            guard let summary, let words = result.wordLatency?.wordCount else { return "n/a (realtime mode only)" }
            return String(format: "median %.3f s, 90th percentile %.3f s, mean %.3f s (%d words)",
                          summary.median, summary.percentile90, summary.mean, words)
        }
        let timeline = result.residentTimeline.map { "\n" + $0.table } ?? ""
        let lastTwo = result.lastTwoSecondsDecodeSeconds.map { String(format: "; the last 2 s alone decode in %.3f s", $0) } ?? ""
        let batchCPU = result.batchCPUSecondsPerAudioMinute.map {
            String(format: " (batch %.1f s: streaming costs %.2fx)", $0, result.cpuSecondsPerAudioMinute / max($0, 1e-9))
        } ?? ""
        return """
        mode                      \(result.mode) (100 ms chunks)
        audio                     \(String(format: "%.2f s", result.audioSeconds))
        speech onset              \(seconds(result.speechOnsetSeconds))
        first volatile after onset \(seconds(result.firstVolatileAfterOnsetSeconds))
        update interval median    \(seconds(result.updateInterval.median)) (\(result.volatileCount) volatile, \(result.finalCount) final)
        final after end of input  \(seconds(result.finalAfterEndOfInputSeconds)) (\(seconds(result.pendingAtEndOfInputSeconds)) of audio pending\(lastTwo))
        word latency, interim     \(latency(result.wordLatency?.interim))
        word latency, confirmed   \(latency(result.wordLatency?.confirmed))
        real-time factor          \(String(format: "%.3f", result.realTimeFactor))
        CPU per audio minute      \(String(format: "%.1f s", result.cpuSecondsPerAudioMinute))\(batchCPU)
        last volatile vs final WER \(result.volatileVersusFinalWER.map { String(format: "%.2f%%", $0 * 100) } ?? "n/a (no volatile before a final)")
        peak RSS (whole run)      \(String(format: "%.1f MB", result.peakResidentMegabytes))
        committed vs batch WER    \(wer)

        passes (CPU share of the stream's process CPU)
        \(passTable(result.passes))

        accurate model's stages (pause and commit passes)
        \(result.accurateStages.table)

        fast model's stages (volatile passes)
        \(result.fastStages.table)

        """ + timeline
    }
}

extension StreamingBenchmark.Result {
    /// The final's delay over this run's decode of the last 2 s alone (goal 3's bound).
    var finalOverLastTwoSeconds: Double? {
        lastTwoSecondsDecodeSeconds.map { finalAfterEndOfInputSeconds / max($0, 1e-9) }
    }
}

extension StreamingBenchmark {
    /// Several streams of the same file (`--runs N`): every run, and the
    /// figures that move with the machine's speed as min and median. The
    /// final's delay is also set against the same run's decode of the last
    /// 2 s (goal 3's bound), so a slow minute slows both sides of the ratio.
    struct Runs: Encodable, Sendable {
        var runs: [Result]
        var finalAfterEndOfInputSeconds: TimingSummary
        var lastTwoSecondsDecodeSeconds: TimingSummary?
        /// Each run's final delay over its own last-2-s decode.
        var finalOverLastTwoSeconds: TimingSummary?
        var firstVolatileAfterOnsetSeconds: TimingSummary?
        var cpuSecondsPerAudioMinute: TimingSummary

        init(_ runs: [Result]) {
            self.runs = runs
            finalAfterEndOfInputSeconds = TimingSummary(runs: runs.map(\.finalAfterEndOfInputSeconds))
            lastTwoSecondsDecodeSeconds = Self.summary(runs.map(\.lastTwoSecondsDecodeSeconds))
            finalOverLastTwoSeconds = Self.summary(runs.map(\.finalOverLastTwoSeconds))
            firstVolatileAfterOnsetSeconds = Self.summary(runs.map(\.firstVolatileAfterOnsetSeconds))
            cpuSecondsPerAudioMinute = TimingSummary(runs: runs.map(\.cpuSecondsPerAudioMinute))
        }

        /// A figure over the runs, when every run measured it.
        private static func summary(_ values: [Double?]) -> TimingSummary? {
            let measured = values.compactMap { $0 }
            return measured.count == values.count ? TimingSummary(runs: measured) : nil
        }

        /// Min and median of each figure; the table above them is the last run's.
        var table: String {
            func seconds(_ summary: TimingSummary?) -> String {
                summary.map { String(format: "min %.3f s, median %.3f s", $0.minimum, $0.median) } ?? "n/a"
            }
            let ratio = finalOverLastTwoSeconds.map {
                String(format: "min %.2fx, median %.2fx (each run against its own)", $0.minimum, $0.median)
            } ?? "n/a"
            return """
            over \(runs.count) runs (the tables above are the last run's)
            final after end of input  \(seconds(finalAfterEndOfInputSeconds))
            the last 2 s alone        \(seconds(lastTwoSecondsDecodeSeconds))
            final over the last 2 s   \(ratio)
            first volatile after onset \(seconds(firstVolatileAfterOnsetSeconds))
            CPU per audio minute      \(String(format: "min %.1f s, median %.1f s", cpuSecondsPerAudioMinute.minimum, cpuSecondsPerAudioMinute.median))

            """
        }
    }

    /// One run's latencies and compute on a line, as runs complete.
    static func runLine(_ result: Result) -> String {
        let lastTwo = result.lastTwoSecondsDecodeSeconds.map {
            String(format: ", the last 2 s alone %.3f s (%.2fx)", $0, result.finalOverLastTwoSeconds ?? 0)
        } ?? ""
        return String(format: "final %.3f s after end of input", result.finalAfterEndOfInputSeconds) + lastTwo
            + String(format: ", %.1f CPU-s per audio minute", result.cpuSecondsPerAudioMinute)
    }
}
