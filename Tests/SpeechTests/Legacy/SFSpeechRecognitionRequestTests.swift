import Foundation
import SpeechEngine
import TestSupport
import Testing
@testable import Speech

@Suite struct SFSpeechRecognitionRequestTests {
    @Test func defaultsMatchApple() {
        let request = SFSpeechAudioBufferRecognitionRequest()
        #expect(request.taskHint == .unspecified)
        #expect(request.shouldReportPartialResults)
        #expect(request.contextualStrings.isEmpty)
        #expect(!request.requiresOnDeviceRecognition)
        #expect(!request.addsPunctuation)
        #expect(request.customizedLanguageModel == nil)
        #expect(request.maximumRecognitionDuration == 60)
        #expect(!request.rollsOverAtRecognitionLimit)
        #expect(request.nativeAudioFormat.sampleRate == 16_000)
        #expect(request.nativeAudioFormat.channelCount == 1)
    }

    /// The engine options the Bridge builds for a request.
    static func engineOptions(_ request: SFSpeechRecognitionRequest) throws -> StreamingOptions {
        try ConfigurationMapping.streamingOptions(for: request.recognitionConfiguration(),
                                                 locale: Locale(identifier: "en-US"))
    }

    @Test func optionsCarryPhrasesPunctuationAndLimit() throws {
        let request = SFSpeechURLRecognitionRequest(url: URL(fileURLWithPath: "/dev/null"))
        request.contextualStrings = ["  Quilter ", ""] + (0..<150).map { "term \($0)" }
        request.addsPunctuation = true
        request.maximumRecognitionDuration = 30
        let options = try Self.engineOptions(request)
        #expect(options.transcription.language == "en")
        #expect(options.transcription.phrases.count == 100)
        #expect(options.transcription.phrases.first == "Quilter")
        #expect(options.transcription.addsPunctuation)
        #expect(request.recognitionLimitSeconds == 30)
        #expect(!request.rollsOverAtRecognitionLimit)
        request.requiresOnDeviceRecognition = true
        #expect(request.recognitionLimitSeconds == nil)
    }

    @Test func customLanguageModelPhrasesBiasRecognition() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let asset = folder.appendingPathComponent("training.json")
        let training = """
        {"phraseCounts": [{"phrase": "apostle of the middle classes", "count": 10},
                          {"phrase": "Quilter", "count": 3}],
         "customPronunciations": [{"grapheme": "Quilter", "phonemes": ["k", "w", "I", "l", "t", "@r"]}]}
        """
        try Data(training.utf8).write(to: asset)
        let configuration = SFSpeechLanguageModel.Configuration(
            languageModel: folder.appendingPathComponent("lm.json"), vocabulary: folder.appendingPathComponent("vocab.json"),
            weight: NSNumber(value: 1.0))
        try await SFSpeechLanguageModel.prepareCustomLanguageModel(for: asset, configuration: configuration)
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.contextualStrings = ["Quilter"]
        request.customizedLanguageModel = configuration
        let options = try Self.engineOptions(request)
        #expect(options.transcription.phrases == ["Quilter", "apostle of the middle classes"])
        #expect(options.transcription.phraseBoost == TranscriptionOptions().phraseBoost * 2)
    }

    @Test func missingOrMalformedLanguageModelsAreTypedErrors() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.customizedLanguageModel = SFSpeechLanguageModel.Configuration(
            languageModel: folder.appendingPathComponent("absent.json"))
        #expect(throws: SFSpeechError.self) { try Self.engineOptions(request) }
        let empty = folder.appendingPathComponent("empty.json")
        try Data("{}".utf8).write(to: empty)
        await #expect {
            try await SFSpeechLanguageModel.prepareCustomLanguageModel(
                for: empty, configuration: .init(languageModel: folder.appendingPathComponent("lm.json")))
        } throws: { error in
            (error as? SFSpeechError)?.code == .malformedSupplementalModel
        }
    }

    @Test func unreadableFileEndsTheTaskWithAudioReadFailed() async throws {
        let request = SFSpeechURLRecognitionRequest(url: URL(fileURLWithPath: "/nonexistent/clip.wav"))
        let environment = SpeechTestEnvironment()
        let session = ScriptedBackend()
        let (recognizer, _) = environment.makeRecognizer(session)
        let recorder = TaskRecorder()
        let task = recognizer.recognitionTask(with: request, resultHandler: recorder.handler)
        await environment.drain()
        #expect(recorder.calls == [.error(domain: SFSpeechErrorDomain, code: 2)])
        // The session never got audio, only stopped.
        #expect(!session.verbs.isEmpty && session.verbs.allSatisfy { $0 == .cancel })
        #expect((task.error as? SFSpeechError)?.code == .audioReadFailed)
    }

    @Test func sampleBuffersAreConvertedLikePCMBuffers() async throws {
        let session = SFSpeechRecognitionTaskTests.helloWorldSession()
        let environment = SpeechTestEnvironment()
        let (_, request, recorder) = environment.startBufferTask(on: session, delegate: false).parts
        let format = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 48_000, channels: 2,
                                                interleaved: true))
        let pcm = BufferConversionTests.sine(format, frequency: 300, seconds: 1.2)
        request.appendAudioSampleBuffer(CMSampleBuffer(pcmBuffer: pcm, presentationTimeStamp: .zero))
        request.endAudio()
        await environment.drain()
        #expect(abs(session.appendedSeconds - 1.2) < 0.01)
        #expect(recorder.calls == [.result("hello", isFinal: false), .result("hello world", isFinal: false),
                                   .result("hello world", isFinal: true)])
    }
}
