// The modern face: contextual strings go in the analyzer's AnalysisContext,
// grouped by tag (.general). Set the context before the audio it should bias.

import AVFoundation
import Foundation
import Speech

enum ModernContextualStrings {
    static func run(_ url: URL, phrases: [String]) async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription)
        if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await installation.downloadAndInstall()
        }
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let context = AnalysisContext()
        context.contextualStrings[.general] = phrases
        try await analyzer.setContext(context)
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
        let text = String(try await collector.value.characters).trimmingCharacters(in: .whitespaces)
        print("PHRASES: \(phrases.joined(separator: " | "))")
        print("TRANSCRIPT: \(text)")
        for phrase in phrases {
            print("FOUND \(text.localizedCaseInsensitiveContains(phrase) ? "yes" : "no"): \(phrase)")
        }
    }
}
