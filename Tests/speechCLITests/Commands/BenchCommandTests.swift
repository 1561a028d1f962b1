import Foundation
import SpeechEngine
import Testing
@testable import SpeechCLI

@Suite struct BenchCommandTests {
    func command(_ arguments: [String]) throws -> BenchCommand {
        let parsed = try ParsedArguments(arguments, specs: BenchCommand.help.options)
        let command = try BenchCommand(arguments: parsed)
        try command.validate()
        return command
    }

    @Test func streamDefaultsToAnRSSPointEveryFiveMinutesAndABatchComparison() throws {
        let command = try command(["a.wav", "--stream"])
        #expect(command.stream)
        #expect(!command.realtime)
        #expect(command.residentSampleIntervalSeconds == 300)
        #expect(command.comparesWithBatch)
        #expect(command.decodesFinalAtPause)
        #expect(try !self.command(["a.wav", "--stream", "--no-final-at-pause"]).decodesFinalAtPause)
        #expect(command.keepsPausePass)
        #expect(try !self.command(["a.wav", "--stream", "--no-pause-drafts"]).keepsPausePass)
        #expect(try self.command(["a.wav", "--stream"]).expectsLastVolatileText)
        #expect(try !self.command(["a.wav", "--stream", "--no-expected-text"]).expectsLastVolatileText)
        #expect(try self.command(["a.wav", "--stream"]).settlesVolatileWords)
        #expect(try !self.command(["a.wav", "--stream", "--no-settled-volatile"]).settlesVolatileWords)
        #expect(command.decoding.fitsCommitWindowToAudio)
        #expect(command.decoding.streamingOptions().fitsCommitWindowToAudio)
        let whole = try self.command(["a.wav", "--stream", "--commit-window", "whole"])
        #expect(!whole.decoding.fitsCommitWindowToAudio)
        #expect(!whole.decoding.streamingOptions().fitsCommitWindowToAudio)
    }

    /// A stream runs once unless asked (in realtime it takes the audio's
    /// length); a file benchmark takes three runs.
    @Test func streamRunsOnceUnlessAsked() throws {
        #expect(try command(["a.wav", "--stream"]).runs == 1)
        #expect(try command(["a.wav", "--stream", "--runs", "4"]).runs == 4)
        #expect(try command(["a.wav"]).runs == 3)
    }

    /// Several streams: min and median of each figure, and each run's final
    /// set against its own run's decode of the last 2 s.
    @Test func severalStreamsPairEachFinalWithItsOwnRun() throws {
        var slow = Self.result(timeline: nil, wer: 0.01)
        slow.finalAfterEndOfInputSeconds = 0.9
        slow.lastTwoSecondsDecodeSeconds = 0.75
        var fast = Self.result(timeline: nil, wer: 0.01)
        fast.finalAfterEndOfInputSeconds = 0.5
        fast.lastTwoSecondsDecodeSeconds = 0.5
        fast.cpuSecondsPerAudioMinute = 20.5
        let runs = StreamingBenchmark.Runs([slow, fast, slow])
        #expect(runs.finalAfterEndOfInputSeconds.runs == [0.9, 0.5, 0.9])
        let ratios = try #require(runs.finalOverLastTwoSeconds).runs
        #expect(ratios.count == 3 && abs(ratios[0] - 1.2) < 1e-12 && ratios[1] == 1)
        #expect(runs.table.contains("final after end of input  min 0.500 s, median 0.900 s\n"), "\(runs.table)")
        #expect(runs.table.contains("final over the last 2 s   min 1.00x, median 1.20x (each run against its own)\n"))
        #expect(runs.table.contains("CPU per audio minute      min 20.5 s, median 21.5 s\n"))
        #expect(runs.table.contains("first volatile after onset n/a\n"), "no first volatile in fast mode")
        #expect(StreamingBenchmark.runLine(slow)
                == "final 0.900 s after end of input, the last 2 s alone 0.750 s (1.20x), 21.5 CPU-s per audio minute")
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(runs)) as? [String: Any])
        #expect((json["runs"] as? [Any])?.count == 3)
        let median = try #require((json["finalOverLastTwoSeconds"] as? [String: Any])?["median"] as? Double)
        #expect(abs(median - 1.2) < 1e-12)
    }

    @Test func rssIntervalAndNoBatch() throws {
        let command = try command(["a.wav", "--stream", "--fast", "--rss-every", "60", "--no-batch"])
        #expect(command.residentSampleIntervalSeconds == 60)
        #expect(!command.comparesWithBatch)
    }

    @Test func usageMistakes() {
        for arguments in [["a.wav", "--rss-every", "60"], ["a.wav", "--no-batch"],
                          ["a.wav", "--stream", "--rss-every", "0"], ["a.wav", "--stream", "--rss-every", "1.5"],
                          ["a.wav", "--stream", "--realtime", "--fast"], ["a.wav", "--fast"],
                          ["a.wav", "--against", "whisper.cpp"], ["a.wav", "--against", "faster-whisper", "--stream"],
                          ["a.wav", "--stream", "--batch-size", "4"], ["a.wav", "--batch-size", "0"],
                          ["a.wav", "--batch-size", "33"], ["a.wav", "--volatile-window", "whole"], ["a.wav", "--no-final-at-pause"], ["a.wav", "--no-pause-drafts"], ["a.wav", "--no-expected-text"],
                          ["a.wav", "--no-settled-volatile"],
                          ["a.wav", "--commit-window", "whole"], ["a.wav", "--stream", "--commit-window", "half"],
                          ["a.wav", "--stream", "--volatile-window", "half"]] {
            #expect(throws: UsageError.self, "\(arguments)") { try command(arguments) }
        }
    }

    /// A file benchmark names the compute type and the kernels it ran on
    /// (figures from machines whose OpenBLAS picked other kernels differ twofold).
    @Test func fileBenchmarkNamesItsKernels() throws {
        let result = BenchCommand.Result(
            file: "a.wav", model: "whisper-base", beamSize: 5, batchSize: nil, threads: 2,
            computeType: "int8-encoder", blasCore: "Prescott", floatProducts: "avx2", int8Kernels: "vnni", audioSeconds: 11,
            modelLoadSeconds: 0.3, wallSeconds: TimingSummary(runs: [1.2, 1.1]), realTimeFactor: 0.1,
            peakResidentMegabytes: 200, text: "And so", stages: [])
        #expect(BenchCommand.table(result).contains("kernels            int8-encoder; OpenBLAS Prescott, float products avx2, int8 vnni"))
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(result)) as? [String: Any])
        #expect(json["computeType"] as? String == "int8-encoder")
        #expect(json["blasCore"] as? String == "Prescott")
        #expect(json["int8Kernels"] as? String == "vnni")
        #expect(json["floatProducts"] as? String == "avx2")
    }

    static func result(timeline: ResidentTimeline?, wer: Double?) -> StreamingBenchmark.Result {
        StreamingBenchmark.Result(
            mode: "fast", audioSeconds: 700, speechOnsetSeconds: 0.5, firstVolatileAfterOnsetSeconds: nil,
            updateInterval: TimingSummary(runs: [1, 2]), finalAfterEndOfInputSeconds: 0.2, pendingAtEndOfInputSeconds: 1.5,
            lastTwoSecondsDecodeSeconds: wer == nil ? nil : 0.65,
            wordLatency: wer == nil ? nil : WordLatency(
                finals: [(StreamingHypothesis(startSeconds: 0, endSeconds: 1, text: "a b",
                                              words: [WordTiming(word: " a", startSeconds: 0, endSeconds: 0.5, probability: 1),
                                                      WordTiming(word: " b", startSeconds: 0.5, endSeconds: 1, probability: 1)]),
                          2.0)],
                volatiles: [WordLatency.Shown(atSeconds: 1.25, text: "a", finalsBefore: 0)]),
            realTimeFactor: 0.15,
            cpuSecondsPerAudioMinute: 21.5, volatileVersusFinalWER: wer.map { $0 * 3 }, peakResidentMegabytes: 640, residentTimeline: timeline, volatileCount: 0, finalCount: 40,
            committedText: "a b", batchText: wer == nil ? nil : "a b", committedVersusBatchWER: wer,
            batchCPUSecondsPerAudioMinute: wer == nil ? nil : 8.6,
            passes: [StreamingBenchmark.PassRow(pass: "volatile", passes: 12, audioSeconds: 48, wallSeconds: 3.5,
                                                cpuSeconds: 6.75, cpuShare: 0.25),
                     StreamingBenchmark.PassRow(pass: "pause", passes: 3, audioSeconds: 30, wallSeconds: 6,
                                                cpuSeconds: 11.5, cpuShare: 0.5)],
            accurateStages: StageBreakdown(rows: [.init(stage: "encode", seconds: 4, calls: 3, millisecondsPerCall: 1333.33,
                                                        share: 0.667)], wallSeconds: 6),
            fastStages: StageBreakdown(rows: [], wallSeconds: 3.5))
    }

    /// The stream's compute by kind of pass, and each model's stages, follow the figures.
    @Test func streamingTableTakesTheComputeApartByPass() {
        let table = StreamingBenchmark.table(Self.result(timeline: nil, wer: nil))
        #expect(table.contains("""
            passes (CPU share of the stream's process CPU)
            pass        count   audio s    wall s     CPU s  CPU share
            volatile       12      48.0      3.50      6.75      25.0%
            pause           3      30.0      6.00     11.50      50.0%

            accurate model's stages (pause and commit passes)
            stage                 seconds   share    calls   ms/call
            encode                  4.000   66.7%        3   1333.33

            """), "\(table)")
        #expect(table.contains("fast model's stages (volatile passes)\n"), "\(table)")
    }

    @Test func streamingTableEndsWithTheRSSTimeline() {
        var timeline = ResidentTimeline(intervalSeconds: 300)
        for (audio, resident) in [(0.0, 300.0), (300, 520), (600, 521), (700, 521)] {
            let point = ResidentTimeline.Point(audioSeconds: audio, wallSeconds: audio * 0.15,
                                               residentMegabytes: resident, peakResidentMegabytes: 530)
            timeline.recordIfDue(point, atAudioSeconds: audio)
            if audio == 700 { timeline.recordEnd(point) }
        }
        let table = StreamingBenchmark.table(Self.result(timeline: timeline, wer: 0.01))
        #expect(table.contains("committed vs batch WER    1.00%\n"), "\(table)")
        #expect(table.contains("CPU per audio minute      21.5 s (batch 8.6 s: streaming costs 2.50x)\n"), "\(table)")
        #expect(table.contains("last volatile vs final WER 3.00%\n"), "\(table)")
        #expect(table.contains("final after end of input  0.200 s (1.500 s of audio pending; the last 2 s alone decode in 0.650 s)\n"),
                "\(table)")
        // "a" shown 0.75 s after its end, "b" by its final 1.0 s after; both confirmed 1.5 and 1.0 s after.
        #expect(table.contains("word latency, interim     median 0.875 s, 90th percentile 1.000 s, mean 0.875 s (2 words)\n"),
                "\(table)")
        #expect(table.contains("word latency, confirmed   median 1.250 s, 90th percentile 1.500 s, mean 1.250 s (2 words)\n"),
                "\(table)")
        #expect(table.contains("\nRSS timeline (every 0:05:00 of audio)\n"), "\(table)")
        #expect(table.contains("\n  0:11:40     105.0 s   521.0 MB   530.0 MB\n"), "\(table)")
        #expect(table.hasSuffix("RSS after the start: 520.0–521.0 MB (spread 1.0 MB)\n"), "\(table)")
    }

    @Test func streamingTableWithoutBatchOrTimeline() {
        let table = StreamingBenchmark.table(Self.result(timeline: nil, wer: nil))
        #expect(table.contains("committed vs batch WER    not measured (--no-batch)"), "\(table)")
        #expect(table.contains("CPU per audio minute      21.5 s\n"), "\(table)")
        #expect(table.contains("final after end of input  0.200 s (1.500 s of audio pending)\n"), "\(table)")
        #expect(table.contains("last volatile vs final WER n/a (no volatile before a final)"), "\(table)")
        #expect(table.contains("word latency, interim     n/a (realtime mode only)\n"), "\(table)")
        #expect(!table.contains("RSS timeline"))
    }

    @Test func streamingJSONCarriesTheTimeline() throws {
        var timeline = ResidentTimeline(intervalSeconds: 300)
        timeline.recordEnd(ResidentTimeline.Point(audioSeconds: 0, wallSeconds: 0, residentMegabytes: 1,
                                                  peakResidentMegabytes: 1))
        let json = try JSONOutput.encode(Self.result(timeline: timeline, wer: nil))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let resident = try #require(object["residentTimeline"] as? [String: Any])
        #expect((resident["points"] as? [Any])?.count == 1)
        #expect(object["committedVersusBatchWER"] == nil)
        #expect(object["committedText"] as? String == "a b")
        let passes = try #require(object["passes"] as? [[String: Any]])
        #expect(passes.map { $0["pass"] as? String } == ["volatile", "pause"])
        #expect(passes.first?["cpuSeconds"] as? Double == 6.75)
        #expect((object["accurateStages"] as? [String: Any])?["wallSeconds"] as? Double == 6)
    }

    @Test func againstFasterWhisperComparesGreedyAndBeamFiveUnlessABeamIsGiven() throws {
        let both = try command(["a.wav", "--against", "faster-whisper"])
        #expect(both.comparesWithFasterWhisper && both.comparisonBeams == [1, 5])
        let one = try command(["a.wav", "--against", "faster-whisper", "--beam", "5", "--batch-size", "4"])
        #expect(one.comparisonBeams == [5])
        #expect(one.decoding.batchSize == 4 && one.decoding.options().batchSize == 4)
        #expect(try command(["a.wav"]).decoding.options().batchSize == nil)
    }

    @Test func theComparisonRunsEveryConfigurationWithOneBatchSize() {
        let comparison = FasterWhisperComparison(
            file: "a.wav", rounds: 1, beams: [1], batchSize: 4, threads: 2, language: "en",
            modelDirectory: URL(fileURLWithPath: "/models/whisper-base"), speechExecutable: "/bin/speech",
            benchScript: "/b/bench.py")
        let configurations = comparison.configurations
        #expect(configurations.map(\.label) == ["speech", "faster-whisper float32", "speech batched 4",
                                                "faster-whisper int8", "faster-whisper int8 batched 4"])
        #expect(configurations.filter(\.isOurs).count == 2)
        let batched = configurations[4].command
        #expect(batched.suffix(4) == ["--compute-type", "int8", "--batch-size", "4"])
        #expect(batched.contains("--model-dir") && batched.contains("--language") && batched.contains("--threads"))
        #expect(!configurations[0].command.contains("--batch-size"))
    }

    @Test func theComparisonTableShowsRatiosAndOurStages() {
        let stages = [StageBreakdown.Row(stage: "encode", seconds: 2, calls: 4, millisecondsPerCall: 500, share: 0.5),
                      StageBreakdown.Row(stage: "decode.step", seconds: 1, calls: 100, millisecondsPerCall: 10, share: 0.25)]
        let measured = [
            FasterWhisperComparison.Measured(configuration: "speech", isOurs: true, beam: 1, wallSeconds: TimingSummary(runs: [4, 6]),
                                             modelLoadSeconds: 1, peakResidentMegabytes: 380, stages: stages, text: "a"),
            FasterWhisperComparison.Measured(configuration: "faster-whisper int8", isOurs: false, beam: 1,
                                             wallSeconds: TimingSummary(runs: [5, 5]), modelLoadSeconds: 2,
                                             peakResidentMegabytes: 350, stages: nil, text: "a"),
        ]
        let result = FasterWhisperComparison.Result(
            file: "a.wav", audioSeconds: 100, rounds: 2, threads: 2, measured: measured,
            ratios: [.init(beam: 1, ours: "speech", theirs: "faster-whisper int8", minimum: 0.8, median: 1.0)])
        let table = FasterWhisperComparison.table(result)
        #expect(table.contains("speech: faster-whisper int8 0.80x (1.00x)"), "\(table)")
        #expect(table.contains("stages of speech, beam 1 (fastest run):"), "\(table)")
        #expect(table.contains("  decode.step"), "\(table)")
    }
}
