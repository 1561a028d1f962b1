// After: the modern readiness checks — no permission prompt for speech;
// instead find the supported locale, install its assets, and reserve it.

import AVFoundation
import Foundation
import Speech

enum After {
    static func transcribe(_ url: URL) async throws {
        // Normalise the locale (BCP-47 variants, @rg= keywords: API.md §3.6).
        guard SpeechTranscriber.isAvailable,
              let locale = await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "en-US")) else {
            throw ExampleError("en-US is not supported")
        }
        let transcriber = SpeechTranscriber(locale: locale, preset: .transcription)
        // "Supported" is not "installed": check and install (§3.6).
        let status = await AssetInventory.status(forModules: [transcriber])
        print("ASSETS: \(status)")
        if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await installation.downloadAndInstall()
        }
        // Reservations replace the per-app permission; there is a cap (§3.6).
        let reserved = try await AssetInventory.reserve(locale: locale)
        print("RESERVED: \(reserved) of at most \(AssetInventory.maximumReservedLocales)")
        print("READY")

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
        print("TRANSCRIPT: \(String(text.characters).trimmingCharacters(in: .whitespaces))")
        _ = await AssetInventory.release(reservedLocale: locale)
    }
}
