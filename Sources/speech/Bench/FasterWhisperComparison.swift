import Foundation
import SpeechEngine

/// `speech bench FILE --against faster-whisper`: every configuration a CPU
/// user picks, ours and faster-whisper's, on the same file and weights, in
/// alternation in one session, with the ratios of our wall time to theirs.
///
/// Ours: window by window, and batched (`--batch-size`, default 8).
/// Theirs (Benchmarks/faster_whisper/bench.py, faster-whisper 1.2.1):
/// float32, int8 (its CPU recommendation), int8 with BatchedInferencePipeline.
/// Each run is a process of its own (model loaded afresh, peak RSS its own);
/// rounds alternate the order, so that every configuration sees the same
/// machine load. Ratios below 1 mean we are faster.
struct FasterWhisperComparison: Sendable {
    var file: String
    var rounds: Int
    var beams: [Int]
    var batchSize: Int
    /// Passed to both engines (nil: each engine's default).
    var threads: Int?
    var language: String?
    /// The model folder both engines load.
    var modelDirectory: URL
    /// Our own executable, run as `speech bench … --runs 1 --format json`.
    var speechExecutable: String
    /// `Benchmarks/faster_whisper/bench.py`.
    var benchScript: String

    /// One configuration: a label and its command without the beam.
    struct Configuration: Sendable {
        var label: String
        var isOurs: Bool
        var command: [String]
    }

    /// One configuration's runs at one beam width.
    struct Measured: Sendable, Encodable {
        var configuration: String
        var isOurs: Bool
        var beam: Int
        var wallSeconds: TimingSummary
        var modelLoadSeconds: Double
        var peakResidentMegabytes: Double
        /// Ours only: the stage breakdown of the fastest run.
        var stages: [StageBreakdown.Row]?
        var text: String
    }

    /// The comparison's outcome.
    struct Result: Sendable, Encodable {
        var file: String
        var audioSeconds: Double
        var rounds: Int
        var threads: Int?
        var measured: [Measured]
        /// `ours / theirs` of the minima and of the medians, per beam.
        var ratios: [Ratio]
    }

    /// Our wall time over theirs for one pair of configurations.
    struct Ratio: Sendable, Encodable {
        var beam: Int
        var ours: String
        var theirs: String
        var minimum: Double
        var median: Double
    }

    var configurations: [Configuration] {
        var ours = [file, "--runs", "1", "--format", "json", "--model", modelDirectory.path]
        var theirs = [file, "--runs", "1", "--json", "--model-dir", modelDirectory.path]
        if let threads {
            ours += ["--threads", String(threads)]
            theirs += ["--threads", String(threads)]
        }
        if let language {
            ours += ["--language", language]
            theirs += ["--language", language]
        }
        let python = ["/usr/bin/env", "python3", benchScript]
        return [
            Configuration(label: "speech", isOurs: true, command: [speechExecutable, "bench"] + ours),
            Configuration(label: "faster-whisper float32", isOurs: false,
                          command: python + theirs + ["--compute-type", "float32"]),
            Configuration(label: "speech batched \(batchSize)", isOurs: true,
                          command: [speechExecutable, "bench"] + ours + ["--batch-size", String(batchSize)]),
            Configuration(label: "faster-whisper int8", isOurs: false, command: python + theirs + ["--compute-type", "int8"]),
            Configuration(label: "faster-whisper int8 batched \(batchSize)", isOurs: false,
                          command: python + theirs + ["--compute-type", "int8", "--batch-size", String(batchSize)]),
        ]
    }

    /// Runs every configuration `rounds` times per beam.
    /// - Parameter log: progress lines (one per run).
    func run(log: (String) -> Void) throws -> Result {
        let configurations = configurations
        var reports: [String: [BenchmarkProcess.Report]] = [:]
        for round in 0..<rounds {
            // Every other round in reverse order: no configuration always runs first or last.
            let order = round % 2 == 0 ? configurations : configurations.reversed()
            for beam in beams {
                for configuration in order {
                    let report = try BenchmarkProcess(command: configuration.command + ["--beam", String(beam)]).run()
                    reports["\(configuration.label)|\(beam)", default: []].append(report)
                    log(String(format: "round %d/%d beam %d: %@ %.2f s", round + 1, rounds, beam,
                               configuration.label, report.wallSeconds.minimum))
                }
            }
        }
        var measured: [Measured] = []
        var ratios: [Ratio] = []
        for beam in beams {
            var byLabel: [String: Measured] = [:]
            for configuration in configurations {
                let runs = reports["\(configuration.label)|\(beam)"] ?? []
                let fastest = runs.min { $0.wallSeconds.minimum < $1.wallSeconds.minimum }
                let entry = Measured(configuration: configuration.label, isOurs: configuration.isOurs, beam: beam,
                                     wallSeconds: TimingSummary(runs: runs.map(\.wallSeconds.minimum)),
                                     modelLoadSeconds: runs.map(\.modelLoadSeconds).min() ?? 0,
                                     peakResidentMegabytes: runs.map(\.peakResidentMegabytes).max() ?? 0,
                                     stages: fastest?.stages, text: fastest?.text ?? "")
                byLabel[configuration.label] = entry
                measured.append(entry)
            }
            for ours in configurations where ours.isOurs {
                for theirs in configurations where !theirs.isOurs {
                    let o = byLabel[ours.label]!.wallSeconds, t = byLabel[theirs.label]!.wallSeconds
                    ratios.append(Ratio(beam: beam, ours: ours.label, theirs: theirs.label,
                                        minimum: o.minimum / max(t.minimum, 1e-9), median: o.median / max(t.median, 1e-9)))
                }
            }
        }
        let audio = reports.values.first?.first?.audioSeconds ?? 0
        return Result(file: file, audioSeconds: audio, rounds: rounds, threads: threads, measured: measured, ratios: ratios)
    }

    /// The comparison as text: per beam, the runs, the ratios, our stage breakdowns.
    static func table(_ result: Result) -> String {
        var lines = [String(format: "file %@ (%.1f s), threads %@, %d alternating rounds", result.file,
                            result.audioSeconds, result.threads.map(String.init) ?? "default", result.rounds)]
        let width = (result.measured.map(\.configuration.count).max() ?? 10) + 2
        for beam in Array(Set(result.measured.map(\.beam))).sorted() {
            lines += ["", "beam \(beam)",
                      "  " + "configuration".padding(toLength: width, withPad: " ", startingAt: 0)
                      + "   min s  median s     RTF  load s  peak MB"]
            for entry in result.measured where entry.beam == beam {
                lines.append("  " + entry.configuration.padding(toLength: width, withPad: " ", startingAt: 0)
                             + String(format: "%8.2f%10.2f%8.3f%8.2f%9.0f", entry.wallSeconds.minimum, entry.wallSeconds.median,
                                      result.audioSeconds > 0 ? entry.wallSeconds.minimum / result.audioSeconds : 0,
                                      entry.modelLoadSeconds, entry.peakResidentMegabytes))
            }
            lines.append("  ratio ours / theirs, of the minima (of the medians):")
            for ours in Set(result.ratios.filter { $0.beam == beam }.map(\.ours)).sorted() {
                let cells = result.ratios.filter { $0.beam == beam && $0.ours == ours }.map {
                    String(format: "%@ %.2fx (%.2fx)", $0.theirs, $0.minimum, $0.median)
                }
                lines.append("    " + ours + ": " + cells.joined(separator: "; "))
            }
            for entry in result.measured where entry.beam == beam {
                guard let stages = entry.stages else { continue }
                let breakdown = StageBreakdown(rows: stages, wallSeconds: entry.wallSeconds.minimum)
                lines += ["", "  stages of \(entry.configuration), beam \(beam) (fastest run):"]
                lines += breakdown.table.split(separator: "\n").map { "    " + $0 }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
