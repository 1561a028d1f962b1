import Foundation
import Speech

/// Where a command writes: results to standard output, progress and logs to
/// standard error. Tests use ``capturing()`` to read what was written.
struct Console: Sendable {
    /// Writes to standard output.
    let writeOutput: @Sendable (String) -> Void
    /// Writes to standard error.
    let writeError: @Sendable (String) -> Void
    /// Whether standard error is a terminal (progress bars are drawn only then).
    let errorIsTerminal: Bool

    /// The process's standard output and error.
    static var process: Console {
        Console(writeOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
                writeError: { FileHandle.standardError.write(Data($0.utf8)) },
                errorIsTerminal: isatty(STDERR_FILENO) == 1)
    }

    /// A console that keeps everything written, for tests.
    static func capturing(errorIsTerminal: Bool = false) -> (Console, CapturedOutput) {
        let captured = CapturedOutput()
        let console = Console(writeOutput: { text in captured.output.withLock { $0 += text } },
                              writeError: { text in captured.error.withLock { $0 += text } },
                              errorIsTerminal: errorIsTerminal)
        return (console, captured)
    }

    /// Writes `text` and a newline to standard output.
    func print(_ text: String) { writeOutput(text.hasSuffix("\n") ? text : text + "\n") }

    /// Writes `text` and a newline to standard error.
    func log(_ text: String) { writeError(text.hasSuffix("\n") ? text : text + "\n") }
}

/// Text written to a capturing ``Console``.
final class CapturedOutput: Sendable {
    /// Everything written to standard output.
    let output = LockedState("")
    /// Everything written to standard error.
    let error = LockedState("")

    /// Standard output so far.
    var standardOutput: String { output.withLock { $0 } }
    /// Standard error so far.
    var standardError: String { error.withLock { $0 } }
}
