import Foundation

/// Runs a helper program (`python3 -m pip`, `python3 -m zipfile`) to
/// completion without blocking a thread, and keeps the end of its output
/// for error messages.
struct ExternalCommand: Sendable {
    /// The program: a path, or a name looked up in `PATH`.
    var executable: String
    /// Its arguments.
    var arguments: [String]
    /// Extra environment variables, added to the current environment.
    var environment: [String: String] = [:]

    /// What a finished command reports.
    struct Outcome: Sendable {
        /// The exit status (or the signal number, for a killed process).
        var status: Int32
        /// The last lines of standard output and error, interleaved.
        var outputTail: String
    }

    /// The status `/usr/bin/env` exits with when the program is not in `PATH`.
    static let commandNotFoundStatus: Int32 = 127

    /// The command line as it would be typed, for messages.
    var commandLine: String { ([executable] + arguments).joined(separator: " ") }

    /// Runs the command and waits for it to exit; cancelling the task
    /// terminates the process.
    /// - Throws: the launch error when the program cannot be started.
    func run() async throws -> Outcome {
        let logURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("speechcompat-command-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: logURL.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: logURL.path])
        }
        defer { try? FileManager.default.removeItem(at: logURL) }
        let log = try FileHandle(forWritingTo: logURL)
        defer { try? log.close() }

        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log

        let status: Int32 = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                process.terminationHandler = { finished in
                    continuation.resume(returning: finished.terminationStatus)
                }
                do {
                    try process.run()
                } catch {
                    process.terminationHandler = nil
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            if process.isRunning { process.terminate() }
        }
        let output = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        let tail = output.split(separator: "\n", omittingEmptySubsequences: true).suffix(6).joined(separator: "\n")
        return Outcome(status: status, outputTail: tail)
    }
}
