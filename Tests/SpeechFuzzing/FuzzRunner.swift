import Foundation

/// What a run found.
public struct FuzzReport: Sendable, CustomStringConvertible {
    /// One input that broke the target's contract or took too long.
    public struct Finding: Sendable {
        public var iteration: Int
        public var input: [UInt8]
        public var fileExtension: String
        public var problem: String
    }

    public var target: String
    public var seed: UInt64
    /// Inputs run, seeds included.
    public var executions = 0
    /// Inputs the parser accepted.
    public var accepted = 0
    /// Inputs refused with a contract error.
    public var refused = 0
    /// Distinct behaviours (accepted, or a distinct error summary) seen.
    public var behaviours = 0
    public var findings: [Finding] = []
    /// The slowest single input, in seconds.
    public var slowestSeconds = 0.0
    public var elapsedSeconds = 0.0

    public var description: String {
        let rate = elapsedSeconds > 0 ? Double(executions) / elapsedSeconds : 0
        return "\(target): \(executions) inputs (seed \(seed)) in \(String(format: "%.1f", elapsedSeconds)) s "
            + "(\(Int(rate))/s): \(accepted) accepted, \(refused) refused with a typed error, "
            + "\(behaviours) distinct behaviours, slowest \(String(format: "%.3f", slowestSeconds)) s, "
            + "\(findings.count) findings"
    }
}

/// Runs a target on mutants of its seeds, deterministically for a seed.
///
/// A small pool keeps every input that showed a new behaviour (accepted, or
/// refused with an error summary not seen before), and later mutants start
/// from the pool as often as from the seeds: a poor man's coverage guidance
/// that walks past the first check of each format. The input under test is
/// written to `scratch/input.<ext>` before it runs, so when a trap ends the
/// process that file is the crashing input.
public struct FuzzRunner {
    public let target: FuzzTarget
    public let seed: UInt64
    /// The folder inputs are written to.
    public let scratch: URL
    /// An input slower than this is a finding (a near-hang).
    public var slowInputSeconds = 5.0

    public init(target: FuzzTarget, seed: UInt64, scratch: URL) {
        self.target = target
        self.seed = seed
        self.scratch = scratch
    }

    /// Runs every seed, then mutants until `iterations` inputs or
    /// `timeLimitSeconds` have passed, whichever comes first.
    public func run(iterations: Int, timeLimitSeconds: Double = .infinity) async throws -> FuzzReport {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let seeds = try target.seeds()
        precondition(!seeds.isEmpty, "fuzz target \(target.name) has no seeds")
        var report = FuzzReport(target: target.name, seed: seed)
        var mutator = Mutator(seed: seed)
        var pool: [FuzzSeed] = []
        var seen: Set<FuzzOutcome> = []
        let start = Date()
        var iteration = 0
        while iteration < max(iterations, seeds.count), Date().timeIntervalSince(start) < timeLimitSeconds {
            let input: FuzzSeed
            if iteration < seeds.count {
                input = seeds[iteration]
            } else {
                let fromPool = !pool.isEmpty && Bool.random(using: &mutator.random)
                let base = fromPool ? pool[Int.random(in: 0..<pool.count, using: &mutator.random)]
                    : seeds[Int.random(in: 0..<seeds.count, using: &mutator.random)]
                let other = seeds[Int.random(in: 0..<seeds.count, using: &mutator.random)]
                input = FuzzSeed(name: base.name, bytes: mutator.mutate(base.bytes, splicing: other.bytes, hotOffsets: base.hotOffsets),
                                 fileExtension: base.fileExtension, hotOffsets: base.hotOffsets)
            }
            let outcome = try await execute(input, iteration: iteration, report: &report)
            if let outcome, seen.insert(outcome).inserted {
                if pool.count >= 64 { pool.remove(at: Int.random(in: 0..<pool.count, using: &mutator.random)) }
                pool.append(input)
            }
            iteration += 1
        }
        report.behaviours = seen.count
        report.elapsedSeconds = Date().timeIntervalSince(start)
        return report
    }

    /// Writes and runs one input, recording what happened.
    private func execute(_ input: FuzzSeed, iteration: Int, report: inout FuzzReport) async throws -> FuzzOutcome? {
        let url = scratch.appendingPathComponent("input" + (input.fileExtension.isEmpty ? "" : "." + input.fileExtension))
        try Data(input.bytes).write(to: url)
        let began = Date()
        var outcome: FuzzOutcome?
        do {
            outcome = try await target.execute(url)
        } catch {
            report.findings.append(.init(iteration: iteration, input: input.bytes, fileExtension: input.fileExtension,
                                         problem: "broke the contract: \(error)"))
        }
        let seconds = Date().timeIntervalSince(began)
        report.executions += 1
        report.slowestSeconds = max(report.slowestSeconds, seconds)
        if seconds > slowInputSeconds {
            report.findings.append(.init(iteration: iteration, input: input.bytes, fileExtension: input.fileExtension,
                                         problem: "took \(String(format: "%.1f", seconds)) s"))
        }
        switch outcome {
        case .accepted: report.accepted += 1
        case .refused: report.refused += 1
        case nil: break
        }
        return outcome
    }
}
