// The modern face: assets replace permission. Supported is not installed:
// check the status, install with progress, reserve the locale while in use
// (there is a cap) and release it after.

import AVFoundation
import Foundation
import Speech

enum ModernAssetManagement {
    static func run(_ url: URL) async throws {
        print("TRANSCRIBER-AVAILABLE: \(SpeechTranscriber.isAvailable)")
        print("SUPPORTED-LOCALES: \(await SpeechTranscriber.supportedLocales.count)")
        print("INSTALLED-LOCALES: \(await SpeechTranscriber.installedLocales.map { $0.identifier(.bcp47) }.sorted().joined(separator: " "))")
        guard let locale = await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "en_US@rg=gbzzzz")) else {
            throw SampleError("no supported locale for English")
        }
        print("LOCALE: \(locale.identifier(.bcp47))")
        let transcriber = SpeechTranscriber(locale: locale, preset: .transcription)
        print("STATUS: \(await AssetInventory.status(forModules: [transcriber]))")
        if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            print("INSTALLING: \(installation.progress.totalUnitCount) units")
            try await installation.downloadAndInstall()
            print(String(format: "PROGRESS %.0f%%", installation.progress.fractionCompleted * 100))
        }
        print("STATUS: \(await AssetInventory.status(forModules: [transcriber]))")
        let reserved = try await AssetInventory.reserve(locale: locale)
        print("RESERVED: \(reserved) (\(await AssetInventory.reservedLocales.count) of \(AssetInventory.maximumReservedLocales))")
        defer { Task { _ = await AssetInventory.release(reservedLocale: locale) } }

        let collector = Task {
            var text = AttributedString()
            for try await result in transcriber.results where result.isFinal { text += result.text }
            return text
        }
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        if let end = try await analyzer.analyzeSequence(from: try AVAudioFile(forReading: url)) {
            try await analyzer.finalizeAndFinish(through: end)
        } else {
            await analyzer.cancelAndFinishNow()
        }
        print("TRANSCRIPT: \(String(try await collector.value.characters).trimmingCharacters(in: .whitespaces))")
        print("RELEASED: \(await AssetInventory.release(reservedLocale: locale))")
    }
}
