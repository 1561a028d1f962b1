// SpeechFuzz: long fuzzing runs of the file parsers (see Benchmarks/Fuzz/run.sh).
//
//   SpeechFuzz <target|all> [--iterations N] [--seconds S] [--seed X] [--findings DIR] [--scratch DIR]
//   SpeechFuzz <target> --replay FILE     (runs one saved input and prints what happened)
//   SpeechFuzz <target> --write-seeds DIR (writes the target's seeds, e.g. as a libFuzzer corpus)
//
// Each target runs its seeds, then mutants, deterministically for the seed.
// Findings (contract violations, inputs slower than 5 s) are written to the
// findings folder as <target>-<seed>-<iteration>.<ext>. A trap ends the
// process: the crashing input is then the scratch folder's `input.*` file,
// which run.sh copies into the findings folder.
import Foundation
import SpeechFuzzing

struct Arguments {
    var targets: [FuzzTarget] = []
    var iterations = 10_000
    var seconds = Double.infinity
    var seed: UInt64 = 1
    var findings = URL(fileURLWithPath: "Benchmarks/FuzzFindings")
    var scratch = FileManager.default.temporaryDirectory.appendingPathComponent("speech-fuzz-\(getpid())")
    var replay: URL?
    var seedsFolder: URL?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            func value() throws -> String {
                guard let next = rest.popFirst() else { throw UsageError("\(argument) needs a value") }
                return next
            }
            switch argument {
            case "--iterations": iterations = Int(try value()) ?? iterations
            case "--seconds": seconds = Double(try value()) ?? seconds
            case "--seed": seed = UInt64(try value()) ?? seed
            case "--findings": findings = URL(fileURLWithPath: try value())
            case "--scratch": scratch = URL(fileURLWithPath: try value())
            case "--replay": replay = URL(fileURLWithPath: try value())
            case "--write-seeds": seedsFolder = URL(fileURLWithPath: try value())
            case "all": targets = FuzzTarget.all
            default:
                guard let target = FuzzTarget.named(argument) else {
                    throw UsageError("unknown target '\(argument)'; targets: all, "
                                     + FuzzTarget.all.map(\.name).joined(separator: ", "))
                }
                targets.append(target)
            }
        }
        if targets.isEmpty { throw UsageError("name a target or all") }
    }
}

struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

do {
    let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    if let folder = arguments.seedsFolder {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for target in arguments.targets {
            for (index, seed) in try target.seeds().enumerated() {
                try Data(seed.bytes).write(to: folder.appendingPathComponent("\(target.name)-\(index)-\(seed.name)"))
            }
        }
        exit(0)
    }
    if let replay = arguments.replay, let target = arguments.targets.first {
        // A copy in scratch, as the runner writes inputs (some targets rename theirs).
        try FileManager.default.createDirectory(at: arguments.scratch, withIntermediateDirectories: true)
        let input = arguments.scratch.appendingPathComponent("input." + replay.pathExtension)
        try? FileManager.default.removeItem(at: input)
        try FileManager.default.copyItem(at: replay, to: input)
        do {
            print("\(target.name): \(try await target.execute(input))")
        } catch {
            print("\(target.name): contract broken: \(error)")
            exit(2)
        }
        exit(0)
    }
    var findingCount = 0
    for target in arguments.targets {
        let scratch = arguments.scratch.appendingPathComponent(target.name)
        let runner = FuzzRunner(target: target, seed: arguments.seed, scratch: scratch)
        print("\(target.name): running (scratch \(scratch.path)) …")
        let report = try await runner.run(iterations: arguments.iterations, timeLimitSeconds: arguments.seconds)
        print(report)
        for finding in report.findings {
            try FileManager.default.createDirectory(at: arguments.findings, withIntermediateDirectories: true)
            let file = arguments.findings.appendingPathComponent(
                "\(target.name)-\(arguments.seed)-\(finding.iteration).\(finding.fileExtension)")
            try Data(finding.input).write(to: file)
            print("  finding at iteration \(finding.iteration): \(finding.problem) -> \(file.path)")
        }
        findingCount += report.findings.count
        try? FileManager.default.removeItem(at: scratch)
    }
    exit(findingCount == 0 ? 0 : 2)
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\nUsage: SpeechFuzz <target|all> [--iterations N] [--seconds S] [--seed X] [--findings DIR]\n".utf8))
    exit(64)
}
