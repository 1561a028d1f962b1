// The modern face: transcribe a recorded file with SpeechAnalyzer and a
// SpeechTranscriber, printing volatile results and timed final words.

import AVFoundation
import Foundation
import Speech

enum ModernFileTranscription {
    static func run(_ url: URL) async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), transcriptionOptions: [],
                                            reportingOptions: [.volatileResults],
                                            attributeOptions: [.audioTimeRange, .transcriptionConfidence])
        if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await installation.downloadAndInstall()
        }
        let collector = Task {
            var finalized = AttributedString()
            for try await result in transcriber.results {
                if result.isFinal {
                    finalized += result.text
                } else {
                    print("VOLATILE: \(String(result.text.characters))")
                }
            }
            return finalized
        }
        // finishAfterFile: the analyzer finalizes and finishes once the file is read.
        let analyzer = try await SpeechAnalyzer(inputAudioFile: try AVAudioFile(forReading: url),
                                                modules: [transcriber], finishAfterFile: true)
        let transcript = try await collector.value
        _ = analyzer
        print("TRANSCRIPT: \(String(transcript.characters).trimmingCharacters(in: .whitespaces))")
        for run in transcript.runs {
            guard let range = run.audioTimeRange else { continue }
            print(String(format: "WORD %.3f %.3f %.3f %@", range.start.seconds, range.duration.seconds,
                         run.transcriptionConfidence ?? 0,
                         String(transcript[run.range].characters).trimmingCharacters(in: .whitespaces)))
        }
    }
}
