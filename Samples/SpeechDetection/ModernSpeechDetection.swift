// The modern face: a SpeechDetector module reports, range by range, whether
// there is speech. It runs beside a transcriber in the same analyzer.

import AVFoundation
import Foundation
import Speech

enum ModernSpeechDetection {
    static func run(_ url: URL) async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription)
        let detector = SpeechDetector(detectionOptions: .init(sensitivityLevel: .medium), reportResults: true)
        if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber, detector]) {
            try await installation.downloadAndInstall()
        }
        let detections = Task {
            var speech = false
            for try await result in detector.results {
                print(String(format: "RANGE %.2f–%.2f %@", result.range.start.seconds, result.range.end.seconds,
                             result.speechDetected ? "speech" : "no speech"))
                speech = speech || result.speechDetected
            }
            return speech
        }
        let transcript = Task {
            var text = AttributedString()
            for try await result in transcriber.results where result.isFinal { text += result.text }
            return text
        }
        let analyzer = SpeechAnalyzer(modules: [transcriber, detector])
        if let end = try await analyzer.analyzeSequence(from: try AVAudioFile(forReading: url)) {
            try await analyzer.finalizeAndFinish(through: end)
        } else {
            await analyzer.cancelAndFinishNow()
        }
        let text = String(try await transcript.value.characters).trimmingCharacters(in: .whitespaces)
        if !text.isEmpty { print("TRANSCRIPT: \(text)") }
        print("SPEECH: \(try await detections.value ? "yes" : "no")")
    }
}
