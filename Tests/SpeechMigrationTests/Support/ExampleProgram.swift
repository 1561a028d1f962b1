import Foundation
import SpeechMigration
import TestSupport

/// Runs a guide example or sample program, built next to the test binary,
/// and reads what it printed.
struct ExampleProgram {
    /// What a run printed and how it ended.
    struct Run {
        var status: Int32
        var output: String
        var error: String
        /// The run was killed after its time limit.
        var timedOut = false

        /// The text after `TRANSCRIPT: `.
        var transcript: String? {
            lines(prefixed: "TRANSCRIPT: ").last
        }

        /// Lines starting with `prefix`, without it.
        func lines(prefixed prefix: String) -> [String] {
            output.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
        }

        /// The transcript and its `WORD start duration confidence text` lines as an outcome.
        func outcome(_ path: RecognitionPath) -> RecognitionOutcome {
            let words = lines(prefixed: "WORD ").compactMap { line -> TimedWord? in
                let fields = line.split(separator: " ", maxSplits: 3).map(String.init)
                guard fields.count == 4, let start = Double(fields[0]), let duration = Double(fields[1]) else { return nil }
                return TimedWord(text: fields[3], startSeconds: start, durationSeconds: duration,
                                 confidence: Double(fields[2]))
            }
            return RecognitionOutcome(path: path, transcript: transcript ?? "", words: words, events: [])
        }
    }

    /// The program's name (its executable target).
    var name: String

    /// The built program, next to the test binary in the build folder.
    func executable() throws -> URL { try BuiltProducts.executable(name) }

    /// Runs the program with `arguments` and extra environment variables;
    /// with `timeoutSeconds`, a run still going then is killed (`timedOut`).
    func run(_ arguments: [String], environment: [String: String] = [:], timeoutSeconds: Double? = nil) throws -> Run {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let killer = timeoutSeconds.map { seconds in
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + seconds)
            timer.setEventHandler { if process.isRunning { process.terminate() } }
            timer.resume()
            return timer
        }
        // Both pipes at once: a program that fills one (64 KB: a sanitizer's
        // reports on stderr) while the other is being read to its end would
        // wait on the test forever.
        let errorReader = ErrorReader(error.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errorReader.wait()
        process.waitUntilExit()
        killer?.cancel()
        let timedOut = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM
            && timeoutSeconds != nil
        return Run(status: process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus
                       : process.terminationStatus,
                   output: String(decoding: outputData, as: UTF8.self),
                   error: String(decoding: errorData, as: UTF8.self), timedOut: timedOut)
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class ErrorReader: @unchecked Sendable {
    // NSCondition (pthreads), which ThreadSanitizer sees, not a futex-based semaphore, which it does not.
    private let condition = NSCondition()
    private var data: Data?

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            let read = handle.readDataToEndOfFile()
            condition.lock()
            data = read
            condition.signal()
            condition.unlock()
        }
    }

    func wait() -> Data {
        condition.lock()
        defer { condition.unlock() }
        while data == nil { condition.wait() }
        return data ?? Data()
    }
}
