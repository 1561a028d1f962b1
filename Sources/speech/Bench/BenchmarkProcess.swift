import Foundation

/// One benchmark run in a process of its own (`speech bench --runs 1` or
/// faster-whisper's `bench.py`), so that each configuration loads its model
/// afresh and its peak RSS is its own. Reads the JSON it prints.
struct BenchmarkProcess: Sendable {
    /// The program's path and its arguments.
    var command: [String]

    /// What every benchmark run prints as JSON (both engines use these keys).
    struct Report: Sendable, Decodable {
        struct Wall: Sendable, Decodable {
            var minimum: Double
        }
        var audioSeconds: Double
        var modelLoadSeconds: Double
        var wallSeconds: Wall
        var peakResidentMegabytes: Double
        var text: String
        /// Ours only: the stage breakdown of the run.
        var stages: [StageBreakdown.Row]?
    }

    /// Runs the command to completion (its stderr goes to ours, so progress shows).
    /// - Throws: `BenchmarkError` when it cannot start, fails, or prints no report.
    func run() throws -> Report {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try RunningChild.shared.launch(process, command: command[0])
        defer { RunningChild.shared.release(process) }
        // Read before waiting: a full pipe would block the child.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        RunningChild.shared.waitIfStopping()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("'\(command.joined(separator: " "))' exited with status \(process.terminationStatus); its messages are above.")
        }
        do {
            return try JSONDecoder().decode(Report.self, from: data)
        } catch {
            throw BenchmarkError("'\(command.joined(separator: " "))' printed no benchmark report (\(error)).")
        }
    }
}

/// The benchmark run in progress, stopped with `speech` itself: a run left
/// going after Ctrl-C, a CI job's timeout (SIGTERM) or a closed terminal
/// would hold a core for minutes and skew whatever is measured next.
final class RunningChild: @unchecked Sendable {
    static let shared = RunningChild()

    // `process` and `stopping` are guarded by `lock`; `watch` is written once, in init.
    private let lock = NSLock()
    private var process: Process?
    private var stopping = false
    private var watch: SignalWatch?

    private init() {
        watch = SignalWatch([SIGINT, SIGTERM, SIGHUP]) { [weak self] number in self?.stop(forwarding: number) }
    }

    /// Starts `process` under the lock, so that a stop signal is handled
    /// either before the child exists (it is never started) or after
    /// Foundation knows its pid — never in between, where the child would
    /// already run but `stop` could not yet see it, and would be orphaned.
    func launch(_ process: Process, command: String) throws(BenchmarkError) {
        let started: Result<Void, any Error> = lock.withLock {
            guard !stopping else { return .success(()) }
            self.process = process
            return Result { try process.run() }
        }
        if case .failure(let error) = started {
            release(process)
            throw BenchmarkError("Could not start \(command): \(error.localizedDescription).")
        }
        waitIfStopping()
    }

    func release(_ process: Process) {
        lock.withLock { if self.process === process { self.process = nil } }
    }

    /// A run that ended because `speech` is stopping is not a failed run:
    /// wait here for the signal handler to end the process.
    func waitIfStopping() {
        guard lock.withLock({ stopping }) else { return }
        while true { pause() }
    }

    /// Ends the child, then this process with status 128 + the signal's
    /// number, as a shell reports a process the signal ended (re-raising it
    /// from a dispatch thread, where signals are blocked, would not end it).
    private func stop(forwarding number: Int32) {
        let child = lock.withLock {
            stopping = true
            return process
        }
        if let child, child.isRunning {
            kill(child.processIdentifier, SIGTERM)
            // A child that ignores SIGTERM gets SIGKILL after 5 s.
            for _ in 0..<50 where child.isRunning { usleep(100_000) }
            if child.isRunning { kill(child.processIdentifier, SIGKILL) }
        }
        exit(128 + number)
    }
}

/// A benchmark that cannot run, with what to do about it.
struct BenchmarkError: Error, Sendable, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
