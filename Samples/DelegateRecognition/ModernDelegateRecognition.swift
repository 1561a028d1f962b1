// The modern face has no delegate: the same progress comes from the results
// sequence (volatile, then final phrases) and the volatile-range handler.

import AVFoundation
import CoreMedia
import Foundation
import Speech

enum ModernDelegateRecognition {
    static func run(_ url: URL) async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .timeIndexedProgressiveTranscription)
        if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await installation.downloadAndInstall()
        }
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        await analyzer.setVolatileRangeChangedHandler { range, changedStart, changedEnd in
            // changedStart: earlier results were finalized; changedEnd: analysis moved on.
            print(String(format: "EVENT volatileRange %.2f–%.2f%@%@", range.start.seconds, range.end.seconds,
                         changedStart ? " finalized" : "", changedEnd ? " advanced" : ""))
        }
        let collector = Task {
            var transcript = AttributedString()
            var detected = false
            for try await result in transcriber.results {
                if !detected, !result.text.characters.isEmpty {
                    detected = true
                    print("EVENT detectedSpeech")
                }
                if result.isFinal {
                    print("EVENT final: \(String(result.text.characters))")
                    transcript += result.text
                } else {
                    print("EVENT volatile: \(String(result.text.characters))")
                }
            }
            print("EVENT finished")
            return transcript
        }
        if let end = try await analyzer.analyzeSequence(from: try AVAudioFile(forReading: url)) {
            print("EVENT finishedReadingAudio")
            try await analyzer.finalizeAndFinish(through: end)
        } else {
            await analyzer.cancelAndFinishNow()
        }
        let transcript = try await collector.value
        print("TRANSCRIPT: \(String(transcript.characters).trimmingCharacters(in: .whitespaces))")
    }
}
