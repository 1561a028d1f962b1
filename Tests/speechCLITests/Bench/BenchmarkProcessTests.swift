import Foundation
import TestSupport
import Testing

/// `speech bench --against` runs each configuration in a child process; when
/// `speech` is stopped, the child must stop too, not run on orphaned.
@Suite("BenchmarkProcess")
struct BenchmarkProcessTests {
    /// The children of `pid` (all its threads'), from /proc.
    static func children(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0) }
        }
    }

    /// Whether `pid` still runs (a zombie waiting for its reaper does not).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func stoppingSpeechStopsTheRunInProgress(signal: Int32) throws {
        let speech = try BuiltProducts.executable("speech")
        let audio = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../../shared/corpus/audio/librispeech-dev-clean/1272-128104-0004_8k.wav")
            .standardized // 29 s: a debug build's run of it lasts far longer than the checks below wait
        // faster-whisper's side is never reached: our own run comes first and is stopped.
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).py")
        try "import time\ntime.sleep(600)\n".write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let parent = Process()
        parent.executableURL = speech
        parent.arguments = ["bench", audio.path, "--against", "faster-whisper", "--model", "whisper-tiny.en",
                            "--beam", "1", "--runs", "1"]
        parent.environment = ProcessInfo.processInfo.environment.merging(
            ["SPEECHCOMPAT_FASTER_WHISPER_BENCH": script.path]) { $1 }
        parent.standardOutput = FileHandle.nullDevice
        parent.standardError = FileHandle.nullDevice
        try parent.run()
        defer { if parent.isRunning { kill(parent.processIdentifier, SIGKILL) } }

        var child: Int32?
        let deadline = Date().addingTimeInterval(60)
        while child == nil && parent.isRunning && Date() < deadline {
            child = Self.children(of: parent.processIdentifier).first
            if child == nil { usleep(20_000) }
        }
        let run = try #require(child, "the benchmark's first run never started")
        defer { if Self.isRunning(run) { kill(run, SIGKILL) } }
        kill(parent.processIdentifier, signal)
        let stopDeadline = Date().addingTimeInterval(20)
        while parent.isRunning && Date() < stopDeadline { usleep(20_000) }
        try #require(!parent.isRunning, "speech did not stop")
        #expect(parent.terminationReason == .exit)
        #expect(parent.terminationStatus == 128 + signal, "speech exits as a shell reports the signal")
        // A process that loaded a model takes a moment to exit under load.
        let goneDeadline = Date().addingTimeInterval(5)
        while Self.isRunning(run) && Date() < goneDeadline { usleep(20_000) }
        #expect(!Self.isRunning(run), "the run \(run) went on after speech stopped")
    }
}
