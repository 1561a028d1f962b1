import Foundation
import SpeechEngine
import TestSupport
import Testing
@testable import Speech

/// `SpeechDetector` alongside a transcriber in one analyzer: its ranges come
/// from the engine's own speech start and end events.
@Suite("SpeechDetector (scripted sessions)")
struct SpeechDetectorTests {
    private func session() -> ScriptedBackend {
        ScriptedBackend(steps: [
            .init(atSeconds: 1.2, event: .speechStarted(atSeconds: 1.0)),
            .init(atSeconds: 2.2, event: .speechEnded(atSeconds: 2.0)),
            .init(atSeconds: 2.5, event: .final(Script.hypothesis("first words", start: 1.0, spacing: 0.5))),
            .init(atSeconds: 3.2, event: .speechStarted(atSeconds: 3.0)),
        ], onFinish: [.speechEnded(atSeconds: 3.4), .final(Script.hypothesis("more", start: 3.0)), .finished])
    }

    @Test("speech and non-speech ranges tile the input, in order, all final")
    func detectsSpeech() async throws {
        let environment = SpeechTestEnvironment([session()])
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let detector = SpeechDetector(detectionOptions: .init(sensitivityLevel: .high), reportResults: true)
            let transcripts = collect(transcriber.results)
            let detections = collect(detector.results)
            let feed = environment.inputFeed()
            let analyzer = SpeechAnalyzer(inputSequence: feed.stream, modules: [transcriber, detector])
            feed.yield(seconds: 4)
            feed.end()
            try await analyzer.finalizeAndFinishThroughEndOfInput()
            let detected = try #require(await value(of: detections))
            #expect(detected.error == nil)
            let verdicts = detected.elements.map { ($0.speechDetected, seconds($0.range.start), seconds($0.range.end)) }
            let expected: [(Bool, Double, Double)] = [(false, 0, 1), (true, 1, 2), (false, 2, 3), (true, 3, 3.4),
                                                      (false, 3.4, 4)]
            #expect(verdicts.count == expected.count)
            for (got, want) in zip(verdicts, expected) {
                #expect(got.0 == want.0 && abs(got.1 - want.1) < 1e-6 && abs(got.2 - want.2) < 1e-6)
            }
            let allFinal = detected.elements.allSatisfy { $0.isFinal }
            #expect(allFinal)
            let texts = try #require(await value(of: transcripts)).elements.map { String($0.text.characters) }
            #expect(texts == ["first words", " more"])
        }
    }

    @Test("the sensitivity sets the transcribers' no-speech threshold")
    func sensitivity() async throws {
        for (level, threshold) in [(SpeechDetector.SensitivityLevel.low, 0.4), (.medium, 0.6), (.high, 0.8)] {
            let environment = SpeechTestEnvironment([])
            try await withModernEnvironment(environment) {
                let analyzer = SpeechAnalyzer(modules: [
                    SpeechTranscriber(locale: englishUS, preset: .transcription),
                    SpeechDetector(detectionOptions: .init(sensitivityLevel: level), reportResults: false),
                ])
                try await analyzer.prepareToAnalyze(in: nil)
                #expect(environment.requestedOptions.first?.transcription.noSpeechThreshold == threshold)
                await analyzer.cancelAndFinishNow()
            }
        }
        #expect(SpeechDetector.SensitivityLevel.allCases.map(\.rawValue) == [0, 1, 2])
    }

    @Test("reportResults: false publishes nothing, and no errors")
    func silentDetector() async throws {
        let failing = ScriptedBackend(steps: [
            .init(atSeconds: 0.5, event: .failed(EngineError(.internalInconsistency, "Broken."))),
        ])
        let environment = SpeechTestEnvironment([failing])
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let detector = SpeechDetector()
            let detections = collect(detector.results)
            let transcripts = collect(transcriber.results)
            let feed = environment.inputFeed()
            let analyzer = SpeechAnalyzer(inputSequence: feed.stream, modules: [transcriber, detector])
            feed.yield(seconds: 1)
            let detected = try #require(await value(of: detections))
            #expect(detected.elements.isEmpty && detected.error == nil)
            #expect(try #require(await value(of: transcripts)).error is SFSpeechError)
            withExtendedLifetime(analyzer) {}
        }
    }

    @Test("a detector needs no assets of its own")
    func formats() {
        let formats = SpeechDetector().availableCompatibleAudioFormats
        #expect(formats.first?.sampleRate == 16_000)
        #expect(formats.first?.commonFormat == .pcmFormatInt16)
    }
}
