import Foundation
import Testing
import TestSupport

/// The ways apps stop recognition, each run several times as its own
/// process (Samples/StopPatterns): every run must end with status 0 and no
/// signal. Before the BLAS exit gate, `stop-then-exit` died with SIGSEGV
/// inside libopenblas in about one run of three.
@Suite("Stop patterns",
       .enabled(if: Models.testsEnabled, Models.disabledReason),
       .serialized)
struct StopPatternModelTests {
    /// Runs per pattern: enough to catch a race that hit one run in three.
    static let runs = 5
    private let clip = Fixtures.corpusClip("audio/librispeech-dev-clean/2412-153948-0000.wav")

    @Test(arguments: ["stop-then-exit", "exit-in-handler", "release-all", "second-task",
                      "modern-cancel-exit", "modern-exit-in-results"])
    func patternEndsCleanly(_ pattern: String) throws {
        for run in 1...Self.runs {
            let result = try ExampleProgram(name: "StopPatterns").run([pattern, clip.path], timeoutSeconds: 90)
            #expect(result.status == 0 && !result.timedOut,
                    "\(pattern) run \(run): status \(result.status)\(result.timedOut ? " (timed out)" : ""): \(result.error.suffix(2_000))")
            if pattern == "second-task" { #expect(result.output.contains("SECOND: If the reader")) }
            if pattern == "release-all" { #expect(result.output.contains("RELEASED")) }
        }
    }
}
