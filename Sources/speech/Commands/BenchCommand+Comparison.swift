import Foundation
import SpeechEngine

/// `speech bench FILE --against faster-whisper`.
extension BenchCommand {
    func runComparison(console: Console) throws {
        let modelDirectory: URL
        switch model {
        case .named(let name): modelDirectory = try AssetStore.default.requireInstalled(name)
        case .directory(let url): modelDirectory = url
        }
        let comparison = FasterWhisperComparison(
            file: file, rounds: runs, beams: comparisonBeams, batchSize: decoding.batchSize ?? 8,
            threads: decoding.threadCount, language: decoding.language, modelDirectory: modelDirectory,
            speechExecutable: try Self.ownExecutable(), benchScript: try Self.fasterWhisperBenchScript())
        let result = try comparison.run { console.log($0) }
        console.writeOutput(json ? try JSONOutput.encode(result) : FasterWhisperComparison.table(result))
    }

    /// This program's own path, to run `speech bench` once per configuration.
    static func ownExecutable() throws -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        if let path = Bundle.main.executablePath { return path }
        throw BenchmarkError("Cannot find this program's own path (/proc/self/exe) to run the benchmark runs.")
    }

    /// faster-whisper's side: $SPEECHCOMPAT_FASTER_WHISPER_BENCH, else
    /// Benchmarks/faster_whisper/bench.py in the current directory or in a
    /// folder above this executable (a checkout's `.build/release/speech`).
    static func fasterWhisperBenchScript() throws -> String {
        let relative = "Benchmarks/faster_whisper/bench.py"
        if let explicit = ProcessInfo.processInfo.environment["SPEECHCOMPAT_FASTER_WHISPER_BENCH"] {
            guard FileManager.default.fileExists(atPath: explicit) else {
                throw BenchmarkError("SPEECHCOMPAT_FASTER_WHISPER_BENCH names \(explicit), which does not exist.")
            }
            return explicit
        }
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        if let executable = try? ownExecutable() {
            var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
            for _ in 0..<5 {
                candidates.append(folder)
                folder = folder.deletingLastPathComponent()
            }
        }
        for folder in candidates {
            let script = folder.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: script) { return script }
        }
        throw BenchmarkError("""
            Cannot find \(relative): run from the SpeechCompat checkout or set \
            SPEECHCOMPAT_FASTER_WHISPER_BENCH to its path (and pip-install faster-whisper==1.2.1: Scripts/setup.sh --benchmarks).
            """)
    }
}
