import Foundation
import SpeechEngine
import TestSupport
import Testing
@testable import Speech

/// `SpeechTranscriber`: presets, how options reach the engine, attributes,
/// alternatives, text options and locales.
@Suite("SpeechTranscriber (scripted sessions)")
struct SpeechTranscriberTests {
    @Test("the 26.0 presets have the documented options")
    func presets() {
        typealias P = SpeechTranscriber.Preset
        #expect(P.transcription == P(transcriptionOptions: [], reportingOptions: [], attributeOptions: []))
        #expect(P.transcriptionWithAlternatives.reportingOptions == [.alternativeTranscriptions])
        #expect(P.timeIndexedTranscriptionWithAlternatives.reportingOptions == [.alternativeTranscriptions])
        #expect(P.timeIndexedTranscriptionWithAlternatives.attributeOptions == [.audioTimeRange])
        #expect(P.progressiveTranscription.reportingOptions == [.volatileResults, .fastResults])
        #expect(P.progressiveTranscription.attributeOptions.isEmpty)
        #expect(P.timeIndexedProgressiveTranscription.reportingOptions == [.volatileResults, .fastResults])
        #expect(P.timeIndexedProgressiveTranscription.attributeOptions == [.audioTimeRange])
        let all = [P.transcription, .transcriptionWithAlternatives, .timeIndexedTranscriptionWithAlternatives,
                   .progressiveTranscription, .timeIndexedProgressiveTranscription]
        #expect(Set(all).count == 5)
        #expect(all.allSatisfy { $0.transcriptionOptions.isEmpty })
    }

    @Test("options and the analysis context reach the engine session")
    func optionsReachTheEngine() async throws {
        let environment = SpeechTestEnvironment([])
        try await withModernEnvironment(environment) {
            let fast = SpeechTranscriber(locale: Locale(identifier: "fr_CA"), transcriptionOptions: [],
                                         reportingOptions: [.volatileResults, .fastResults, .alternativeTranscriptions],
                                         attributeOptions: [.transcriptionConfidence])
            let context = AnalysisContext()
            context.contextualStrings[.general] = ["Quilter", " gospel "]
            context.contextualStrings[AnalysisContext.ContextualStringsTag("names")] = ["Quilter", "Anaïs"]
            let analyzer = SpeechAnalyzer(modules: [fast])
            try await analyzer.setContext(context)
            #expect(await analyzer.context === context)
            try await analyzer.prepareToAnalyze(in: nil)
            let options = try #require(environment.requestedOptions.first)
            #expect(options.transcription.language == "fr")
            #expect(options.reportsVolatileResults)
            #expect(options.transcription.beamSize == 3)        // greedy widened for three alternatives
            #expect(options.transcription.alternativeCount == 3)
            #expect(options.transcription.wordTimestamps)
            #expect(options.volatileIntervalSeconds == 0.25)
            #expect(Set(options.transcription.phrases) == ["Quilter", "gospel", "Anaïs"])
            await analyzer.cancelAndFinishNow()
        }
    }

    @Test("word runs carry audioTimeRange and transcriptionConfidence; alternatives follow the text")
    func attributesAndAlternatives() async throws {
        let hypothesis = Script.hypothesis("gone with the wind", start: 0.5, probability: 0.75,
                                           alternatives: ["gone with the wind", "gone with a wind", "done with the wind"])
        let session = ScriptedBackend(steps: [], onFinish: [.final(hypothesis), .finished])
        let environment = SpeechTestEnvironment([session])
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, transcriptionOptions: [],
                                                reportingOptions: [.alternativeTranscriptions],
                                                attributeOptions: [.audioTimeRange, .transcriptionConfidence])
            let results = collect(transcriber.results)
            let feed = environment.inputFeed()
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            feed.yield(seconds: 3)
            feed.end()
            let last = try #require(try await analyzer.analyzeSequence(feed.stream))
            try await analyzer.finalizeAndFinish(through: last)
            let collected = try #require(await value(of: results))
            let result = try #require(collected.elements.first)
            #expect(String(result.text.characters) == "gone with the wind")
            let runs = Array(result.text.runs)
            #expect(runs.count == 4)
            var previousEnd = CMTime.zero
            for (index, run) in runs.enumerated() {
                let range = try #require(run.audioTimeRange)
                #expect(abs(seconds(range.start) - (0.5 + 0.4 * Double(index))) < 1e-6)
                #expect(range.start >= previousEnd)
                previousEnd = range.end
                let confidence = try #require(run.transcriptionConfidence)
                #expect(confidence > 0 && confidence <= 1)
                #expect(abs(confidence - 0.75) < 1e-9)
            }
            // Best first, duplicates of the text dropped, never empty.
            #expect(result.alternatives.map { String($0.characters) }
                    == ["gone with the wind", "gone with a wind", "done with the wind"])
            #expect(result.text == result.alternatives[0])
            #expect(abs(seconds(result.range.start) - 0.5) < 1e-6)
            #expect(abs(seconds(result.range.end) - 2.1) < 1e-6)
        }
    }

    @Test("without attribute options the text has no speech attributes")
    func noAttributesUnlessAsked() {
        let hypothesis = Script.hypothesis("plain text")
        let text = ModernResultMapping.attributedText(of: hypothesis, base: .zero,
                                                      settings: TranscriberSettings(locale: englishUS),
                                                      continuesText: true)
        #expect(String(text.characters) == " plain text")
        #expect(text.runs.allSatisfy { $0.audioTimeRange == nil && $0.transcriptionConfidence == nil })
    }

    @Test("etiquetteReplacements masks expletives")
    func etiquette() {
        var settings = TranscriberSettings(locale: englishUS)
        settings.masksExpletives = true
        #expect(ModernResultMapping.filtered("Oh shit, that's damn good.", settings: settings)
                == "Oh s***, that's d*** good.")
        settings.masksExpletives = false
        #expect(ModernResultMapping.filtered("Oh shit.", settings: settings) == "Oh shit.")
    }

    @Test("supported locales resolve regional equivalents and keywords")
    func localeEquivalence() async throws {
        try await withModernEnvironment {
            let supported = await SpeechTranscriber.supportedLocales
            #expect(supported.count > 100)
            #expect(supported.contains { LocaleMapping.key(of: $0) == "en-US" })
            let exact = await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "en_US"))
            #expect(exact.map(LocaleMapping.key(of:)) == "en-US")
            let keyword = await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "en_GB@calendar=gregorian"))
            #expect(keyword.map(LocaleMapping.key(of:)) == "en-GB")
            let languageOnly = await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "de"))
            #expect(languageOnly.map(LocaleMapping.languageCode(of:)) == "de")
            let unknown = await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "tlh-XX"))
            #expect(unknown == nil)
            // Nothing is installed in the test's empty model folder.
            #expect(await SpeechTranscriber.installedLocales.isEmpty)
            #expect(await SpeechTranscriber(locale: englishUS, preset: .transcription)
                .availableCompatibleAudioFormats.isEmpty)
            #expect(await SpeechAnalyzer.bestAvailableAudioFormat(
                compatibleWith: [SpeechTranscriber(locale: englishUS, preset: .transcription)]) == nil)
            #expect(SpeechTranscriber(locale: englishUS, preset: .transcription).selectedLocales == [englishUS])
        }
    }
}
