// The modern face: ask for alternatives with .alternativeTranscriptions and
// for confidence with .transcriptionConfidence; each final phrase has its
// alternatives, and each run of text its confidence.

import AVFoundation
import Foundation
import Speech

enum ModernAlternatives {
    static func run(_ url: URL) async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), transcriptionOptions: [],
                                            reportingOptions: [.alternativeTranscriptions],
                                            attributeOptions: [.transcriptionConfidence])
        if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await installation.downloadAndInstall()
        }
        let collector = Task {
            var phrases: [SpeechTranscriber.Result] = []
            for try await result in transcriber.results where result.isFinal { phrases.append(result) }
            return phrases
        }
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        if let end = try await analyzer.analyzeSequence(from: try AVAudioFile(forReading: url)) {
            try await analyzer.finalizeAndFinish(through: end)
        } else {
            await analyzer.cancelAndFinishNow()
        }
        let phrases = try await collector.value
        let text = phrases.map { String($0.text.characters).trimmingCharacters(in: .whitespaces) }
        print("TRANSCRIPT: \(text.joined(separator: " "))")
        for (number, phrase) in phrases.enumerated() {
            for (index, alternative) in phrase.alternatives.enumerated() {
                print("ALTERNATIVE \(number).\(index): \(String(alternative.characters).trimmingCharacters(in: .whitespaces))")
            }
        }
        var low: [String] = []
        for phrase in phrases {
            for run in phrase.text.runs {
                guard let confidence = run.transcriptionConfidence else { continue }
                let word = String(phrase.text[run.range].characters).trimmingCharacters(in: .whitespaces)
                print(String(format: "CONFIDENCE %.3f %@", confidence, word))
                if confidence < 0.5 { low.append(word) }
            }
        }
        print("LOW-CONFIDENCE: \(low.joined(separator: " "))")
    }
}
