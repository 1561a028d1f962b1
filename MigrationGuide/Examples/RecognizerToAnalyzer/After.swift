// After: the modern file pattern — a SpeechTranscriber module in a
// SpeechAnalyzer; final results are phrases, and each run of their text
// carries its audio time range and confidence.

import AVFoundation
import Foundation
import Speech

enum After {
    static func transcribe(_ url: URL) async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"),
                                            transcriptionOptions: [],
                                            reportingOptions: [],
                                            attributeOptions: [.audioTimeRange, .transcriptionConfidence])
        // Assets replace isAvailable: install the locale's model if needed.
        if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await installation.downloadAndInstall()
        }

        let analyzer = SpeechAnalyzer(modules: [transcriber])
        // Read results concurrently with the analysis.
        let collector = Task {
            var transcript = AttributedString()
            for try await result in transcriber.results where result.isFinal {
                transcript += result.text
            }
            return transcript
        }

        // The results sequence only ends once the analyzer finishes (API.md §3.7).
        let file = try AVAudioFile(forReading: url)
        if let end = try await analyzer.analyzeSequence(from: file) {
            try await analyzer.finalizeAndFinish(through: end)
        } else {
            await analyzer.cancelAndFinishNow()
        }
        let transcript = try await collector.value

        print("TRANSCRIPT: \(String(transcript.characters).trimmingCharacters(in: .whitespaces))")
        for run in transcript.runs {
            guard let range = run.audioTimeRange else { continue }
            let word = String(transcript[run.range].characters).trimmingCharacters(in: .whitespaces)
            print(String(format: "WORD %.3f %.3f %.3f %@", range.start.seconds, range.duration.seconds,
                         run.transcriptionConfidence ?? 0, word))
        }
    }
}
