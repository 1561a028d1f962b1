// The modern face: the file is sent into a task that runs the analyzer over
// it, while the caller collects the transcriber's results.

import AVFoundation
import Foundation
import Speech

enum ModernSendableAudioFile {
    static func run(_ url: URL) async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), transcriptionOptions: [],
                                            reportingOptions: [], attributeOptions: [.audioTimeRange, .transcriptionConfidence])
        if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await installation.downloadAndInstall()
        }
        let file = try AVAudioFile(forReading: url)
        let analyzer = SpeechAnalyzer(modules: [transcriber])

        // The file crosses into the task: it is Sendable.
        let analysis = Task {
            let lastSample = try await analyzer.analyzeSequence(from: file)
            if let lastSample {
                try await analyzer.finalizeAndFinish(through: lastSample)
            } else {
                await analyzer.cancelAndFinishNow()
            }
            return file.framePosition
        }
        var transcript = AttributedString()
        for try await result in transcriber.results where result.isFinal { transcript += result.text }
        print("FED: \(try await analysis.value) frames")
        print("TRANSCRIPT: \(String(transcript.characters).trimmingCharacters(in: .whitespaces))")
        for run in transcript.runs {
            guard let range = run.audioTimeRange else { continue }
            print(String(format: "WORD %.3f %.3f %.3f %@", range.start.seconds, range.duration.seconds,
                         run.transcriptionConfidence ?? 0,
                         String(transcript[run.range].characters).trimmingCharacters(in: .whitespaces)))
        }
    }
}
