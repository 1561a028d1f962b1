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
        do {
            try process.run()
        } catch {
            throw BenchmarkError("Could not start \(command[0]): \(error.localizedDescription).")
        }
        // Read before waiting: a full pipe would block the child.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
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

/// A benchmark that cannot run, with what to do about it.
struct BenchmarkError: Error, Sendable, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
