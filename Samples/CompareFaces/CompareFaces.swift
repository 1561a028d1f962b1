// CompareFaces: run the same recording through the legacy face, the modern
// face and both migration adapters, and show how they differ — transcripts
// side by side, word diff, WER between them, word timing and confidence.
//
//   CompareFaces <audio-file>... [--json]
//
// This is what `speech compare` prints, written as an app would use
// SpeechMigration.

import Foundation
import SpeechMigration

@main
struct CompareFaces {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let json = arguments.contains("--json")
        arguments.removeAll { $0 == "--json" }
        guard !arguments.isEmpty else {
            FileHandle.standardError.write(Data("Usage: CompareFaces <audio-file>... [--json]\n".utf8))
            exit(64)
        }
        let runner = ComparisonRunner(runner: PathRunner(locale: Locale(identifier: "en-US")))
        var reports: [ComparisonReport] = []
        do {
            for path in arguments {
                let report = try await runner.compare(URL(fileURLWithPath: path))
                reports.append(report)
                if !json { print(report.text + "\n") }
            }
            if json {
                print(String(decoding: try ComparisonReport.json(reports), as: UTF8.self))
            } else {
                let worst = reports.map(\.largestWordErrorRate).max() ?? 0
                print(String(format: "LARGEST-WER: %.3f", worst))
            }
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            exit(1)
        }
    }
}
