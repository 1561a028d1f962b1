import Foundation
@testable import Speech
@testable import SpeechMigration
import Testing

/// The legacy pipeline under the modern face, without a model: what each
/// legacy request is configured with, and how legacy transcriptions map to
/// the stream's spans.
@Suite struct LegacyPipelineBackendTests {
    @Test("requests take the transcriber's options and the template's legacy-only settings")
    func requestSettings() throws {
        var configuration = RecognitionConfiguration()
        configuration.phrases = ["SpeechCompat"]
        configuration.addsPunctuation = true
        configuration.reportsVolatileResults = false
        let template = SFSpeechURLRecognitionRequest(url: URL(fileURLWithPath: "/tmp/a.wav"))
        template.taskHint = .dictation
        template.contextualStrings = ["Whisper", "SpeechCompat"]
        template.interactionIdentifier = "ticket-7"
        template.requiresOnDeviceRecognition = false
        template.customizedLanguageModel = SFSpeechLanguageModel.Configuration(
            languageModel: URL(fileURLWithPath: "/tmp/lm.bin"))
        let settings = LegacyRequestSettings(configuration: configuration, template: .init(template))
        template.taskHint = .search  // read once: later changes do not count

        let request = SFSpeechAudioBufferRecognitionRequest()
        settings.apply(to: request)
        #expect(request.contextualStrings == ["SpeechCompat", "Whisper"])
        #expect(request.addsPunctuation && !request.shouldReportPartialResults)
        #expect(request.taskHint == .dictation && request.interactionIdentifier == "ticket-7")
        #expect(!request.requiresOnDeviceRecognition && request.rollsOverAtRecognitionLimit,
                "a server-style template rolls over its limit, as modern analysis has none")
        #expect(request.customizedLanguageModel?.languageModel.path == "/tmp/lm.bin")

        let untemplated = SFSpeechAudioBufferRecognitionRequest()
        LegacyRequestSettings(configuration: configuration, template: .init()).apply(to: untemplated)
        #expect(untemplated.requiresOnDeviceRecognition && !untemplated.rollsOverAtRecognitionLimit)
        #expect(untemplated.taskHint == .unspecified && untemplated.customizedLanguageModel == nil)
    }

    @Test("a final transcription becomes a span at the task's stream time with timed words")
    func finalSpan() throws {
        let best = try LegacyResultFactory.transcription(words: [
            .init(text: "go", timestamp: 0.5, duration: 0.25, confidence: 0.9),
            .init(text: "forward", timestamp: 0.8, duration: 0.5, confidence: 0.8)])
        let other = try LegacyResultFactory.transcription(words: [
            .init(text: "go", timestamp: 0, duration: 0, confidence: 0),
            .init(text: "foreword", timestamp: 0, duration: 0, confidence: 0)])
        let span = LegacyPipelineBackend.span(of: best, alternatives: [best, other], startSeconds: 10, endSeconds: 11)
        #expect(span.text == "go forward")
        #expect(span.startSeconds == 10)
        #expect(span.endSeconds == 11.3, "the range reaches the last word")
        #expect(span.words.map(\.text) == ["go", " forward"])
        #expect(span.words.map(\.startSeconds) == [10.5, 10.8])
        #expect(abs(span.words[1].confidence - 0.8) < 1e-6)
        #expect(span.alternatives.map(\.text) == ["go forward", "go foreword"])

        let partial = LegacyPipelineBackend.span(of: other, alternatives: [], startSeconds: 10, endSeconds: 12)
        #expect(partial.words.isEmpty, "partial results carry no word timing")
        #expect(partial.endSeconds == 12 && partial.text == "go foreword")
    }

    @Test("no speech in a legacy task is an empty final; its cancellation is the backend's own")
    func legacyErrors() {
        #expect(LegacyPipelineBackend.isNoSpeech(NSError(domain: "kAFAssistantErrorDomain", code: 1110)))
        #expect(!LegacyPipelineBackend.isNoSpeech(NSError(domain: "kAFAssistantErrorDomain", code: 1101)))
        #expect(LegacyPipelineBackend.isCancellation(NSError(domain: "kLSRErrorDomain", code: 301)))
    }
}
