// After: SpeechAnalyzer is built for long-form audio: there is no limit, one
// analyzer runs as long as input arrives, and times are on one timeline.

import AVFoundation
import Foundation
import Speech

enum After {
    static func transcribe(_ url: URL) async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), transcriptionOptions: [],
                                            reportingOptions: [], attributeOptions: [.audioTimeRange])
        if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await installation.downloadAndInstall()
        }
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let collector = Task {
            var text = AttributedString()
            for try await result in transcriber.results where result.isFinal { text += result.text }
            return text
        }
        if let end = try await analyzer.analyzeSequence(from: try AVAudioFile(forReading: url)) {
            try await analyzer.finalizeAndFinish(through: end)
        } else {
            await analyzer.cancelAndFinishNow()
        }
        let text = try await collector.value
        print("TASKS: 1")
        print("TRANSCRIPT: \(String(text.characters).trimmingCharacters(in: .whitespaces))")
        for run in text.runs {
            guard let range = run.audioTimeRange else { continue }
            let word = String(text[run.range].characters).trimmingCharacters(in: .whitespaces)
            print(String(format: "WORD %.3f %.3f %.3f %@", range.start.seconds, range.duration.seconds, 0.0, word))
        }
    }
}
