import AVFoundation
import Foundation
import Speech

extension PathRunner {
    /// The modern face: analyzer and transcriber over the file.
    func runModern(_ url: URL) async throws -> RecognitionOutcome {
        try await analyze(url, as: .modern, pipeline: nil)
    }

    /// The modern face with legacy tasks underneath (`useLegacyPipeline`):
    /// the same code as `runModern`.
    func runModernOverLegacy(_ url: URL) async throws -> RecognitionOutcome {
        let template = SFSpeechURLRecognitionRequest(url: url)
        configure(template)
        return try await analyze(url, as: .modernOverLegacy, pipeline: template)
    }

    /// Runs an analyzer and transcriber over the file, on the modern
    /// pipeline or, given a template request, on the legacy one.
    private func analyze(_ url: URL, as path: RecognitionPath,
                         pipeline template: SFSpeechRecognitionRequest?) async throws -> RecognitionOutcome {
        guard let supported = await SpeechTranscriber.supportedLocale(equivalentTo: locale) else {
            throw MigrationError(.unsupportedLocale, "SpeechTranscriber does not support \(locale.identifier).")
        }
        let transcriber = SpeechTranscriber(
            locale: supported, transcriptionOptions: [],
            reportingOptions: reportsPartialResults ? [.volatileResults, .alternativeTranscriptions]
                : [.alternativeTranscriptions],
            attributeOptions: [.audioTimeRange, .transcriptionConfidence])
        if let template { transcriber.useLegacyPipeline(configuredLike: template) }
        var events: [String] = []
        var finals: [SpeechTranscriber.Result] = []
        do {
            if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
                try await installation.downloadAndInstall()
            }
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            if !contextualStrings.isEmpty {
                let context = AnalysisContext()
                context.contextualStrings[.general] = contextualStrings
                try await analyzer.setContext(context)
            }
            let collector = Task { () -> ([String], [SpeechTranscriber.Result]) in
                var events: [String] = [], finals: [SpeechTranscriber.Result] = []
                for try await result in transcriber.results {
                    events.append(result.isFinal ? "final" : "volatile")
                    if result.isFinal { finals.append(result) }
                }
                return (events, finals)
            }
            let file: AVAudioFile
            do {
                file = try AVAudioFile(forReading: url)
            } catch {
                await analyzer.cancelAndFinishNow()
                throw MigrationError(.audioUnreadable, "The audio file \(url.path) cannot be decoded.", underlying: error)
            }
            if let end = try await analyzer.analyzeSequence(from: file) {
                try await analyzer.finalizeAndFinish(through: end)
            } else {
                await analyzer.cancelAndFinishNow()
            }
            (events, finals) = try await collector.value
            events.append("end")
        } catch let error as MigrationError {
            throw error
        } catch {
            return Self.failure(path, events: events, error)
        }
        return modernOutcome(path, finals: finals.map { ($0.text, $0.alternatives) }, events: events)
    }

    /// Joins final phrases: words from the runs, alternative k from each
    /// phrase's alternative k.
    private func modernOutcome(_ path: RecognitionPath, finals: [(text: AttributedString, alternatives: [AttributedString])],
                               events: [String]) -> RecognitionOutcome {
        let words = finals.flatMap { AttributedTranscript.words(in: $0.text, keepingPunctuation: addsPunctuation) }
        let transcript = finals.map { AttributedTranscript.plainText(of: $0.text, keepingPunctuation: addsPunctuation) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        let count = finals.map(\.alternatives.count).max() ?? 0
        var alternatives: [String] = []
        for index in stride(from: 1, to: count, by: 1) {
            let text = finals.map { phrase in
                AttributedTranscript.plainText(of: index < phrase.alternatives.count ? phrase.alternatives[index] : phrase.text,
                                               keepingPunctuation: addsPunctuation)
            }.filter { !$0.isEmpty }.joined(separator: " ")
            if text != transcript, !alternatives.contains(text) { alternatives.append(text) }
        }
        return RecognitionOutcome(path: path, transcript: transcript, words: words, alternatives: alternatives,
                                  events: events, error: nil)
    }
}
