import Foundation
import SpeechEngine
import TestSupport
import Testing
@testable import Speech

/// The task's state machine and delivery contract, on a scripted session.
@Suite struct SFSpeechRecognitionTaskTests {
    /// Speech at 0.1 s, two growing guesses, a final range at finish.
    static func helloWorldSession(holdsFinish: Bool = false) -> ScriptedBackend {
        ScriptedBackend(steps: [
            .init(atSeconds: 0.1, event: .speechStarted(atSeconds: 0.1)),
            .init(atSeconds: 0.5, event: .volatile(Script.hypothesis("hello"))),
            .init(atSeconds: 0.6, event: .progress(processedSeconds: 0.6)),
            .init(atSeconds: 1.0, event: .volatile(Script.hypothesis("hello world"))),
        ], onFinish: [.final(Script.hypothesis("hello world", probability: 0.8)), .finished],
        holdsFinish: holdsFinish)
    }

    @Test func handlerGetsCumulativePartialsThenOneFinal() async throws {
        let environment = SpeechTestEnvironment()
        let session = Self.helloWorldSession()
        let (task, request, recorder) = environment.startBufferTask(on: session, delegate: false).parts
        request.append(Script.buffer(seconds: 1.2))
        await environment.drain()
        #expect(recorder.calls == [.result("hello", isFinal: false), .result("hello world", isFinal: false)])
        #expect(task.state == .running)
        #expect(!task.isFinishing)
        request.endAudio()
        await environment.drain()
        let calls = recorder.calls
        #expect(calls == [.result("hello", isFinal: false), .result("hello world", isFinal: false),
                          .result("hello world", isFinal: true)])
        let results = recorder.results
        #expect(results.filter(\.isFinal).count == 1)
        for partial in results.dropLast() {
            #expect(partial.bestTranscription.segments.allSatisfy { $0.confidence == 0 })
            #expect(partial.speechRecognitionMetadata == nil)
        }
        let final = try #require(results.last)
        #expect(final.bestTranscription.segments.allSatisfy { abs($0.confidence - 0.8) < 1e-6 })
        let metadata = try #require(final.speechRecognitionMetadata)
        #expect(abs(metadata.speechStartTimestamp - 0.2) < 1e-9)
        #expect(metadata.speakingRate > 0)
        #expect(metadata.voiceAnalytics != nil)
        #expect(task.state == .completed)
        #expect(task.isFinishing)
        #expect(task.error == nil)
        #expect(!task.isCancelled)
    }

    @Test func delegateCallsArriveInApplesOrder() async throws {
        let environment = SpeechTestEnvironment()
        let session = Self.helloWorldSession()
        let (task, request, recorder) = environment.startBufferTask(on: session).parts
        request.append(Script.buffer(seconds: 1.2))
        request.endAudio()
        await environment.drain()
        #expect(recorder.calls == [
            .detectedSpeech, .hypothesis("hello"), .processed(0.6), .hypothesis("hello world"), .finishedReading,
            .finalRecognition("hello world"), .finishedSuccessfully(true),
        ])
        #expect(task.state == .completed)
    }

    @Test func eachStepOfAudioDeliversExactlyItsCalls() async throws {
        let environment = SpeechTestEnvironment()
        // The final is held until the test has seen the task finishing: the
        // scripted final otherwise races the state check after endAudio().
        let session = Self.helloWorldSession(holdsFinish: true)
        let (task, request, recorder) = environment.startBufferTask(on: session).parts
        await environment.drain()
        #expect(recorder.calls.isEmpty)
        #expect(task.state == .starting)
        request.append(Script.buffer(seconds: 0.5))
        await environment.drain()
        #expect(recorder.calls == [.detectedSpeech, .hypothesis("hello")])
        #expect(task.state == .running)
        request.append(Script.buffer(seconds: 0.3))
        await environment.drain()
        #expect(recorder.calls.dropFirst(2) == [.processed(0.6)])
        request.append(Script.buffer(seconds: 0.4))
        await environment.drain()
        #expect(recorder.calls.dropFirst(3) == [.hypothesis("hello world")])
        request.endAudio()
        #expect(task.state == .finishing)
        await environment.drain()
        #expect(task.state == .finishing)
        session.releaseFinish()
        await environment.drain()
        #expect(task.state == .completed)
        #expect(recorder.calls.dropFirst(4) == [
            .finishedReading, .finalRecognition("hello world"), .finishedSuccessfully(true),
        ])
        #expect(session.verbs.filter { if case .append = $0 { false } else { true } } == [.finish])
        #expect(abs(session.appendedSeconds - 1.2) < 1e-6)
    }

    @Test func silenceEndsWithNoSpeech1110Once() async throws {
        let session = ScriptedBackend(onFinish: [.progress(processedSeconds: 1), .finished])
        let environment = SpeechTestEnvironment()
        let (task, request, recorder) = environment.startBufferTask(on: session).parts
        request.append(Script.buffer(seconds: 1, amplitude: 0))
        request.endAudio()
        await environment.drain()
        #expect(recorder.terminalCalls == 1)
        #expect(recorder.calls.filter { !$0.isProgress } == [.finishedReading, .finishedSuccessfully(false)])
        let error = try #require(task.error) as NSError
        #expect(error.domain == "kAFAssistantErrorDomain")
        #expect(error.code == 1110)
        #expect(error.localizedDescription == "No speech detected")

        let handlerSession = ScriptedBackend()
        let (handlerRecognizer, _) = environment.makeRecognizer(handlerSession)
        let handlerRequest = SFSpeechAudioBufferRecognitionRequest()
        let handlerRecorder = TaskRecorder()
        handlerRecognizer.recognitionTask(with: handlerRequest, resultHandler: handlerRecorder.handler)
        handlerRequest.append(Script.buffer(seconds: 0.5, amplitude: 0))
        handlerRequest.endAudio()
        await environment.drain()
        #expect(handlerRecorder.terminalCalls == 1)
        #expect(handlerRecorder.calls == [.error(domain: "kAFAssistantErrorDomain", code: 1110)])
    }

    @Test func engineFailureIsDeliveredOnceAndLaterEventsIgnored() async throws {
        let session = ScriptedBackend(steps: [
            .init(atSeconds: 0.2, event: .volatile(Script.hypothesis("partial"))),
            .init(atSeconds: 0.4, event: .failed(EngineError(.internalInconsistency, "decoder broke"))),
        ])
        let environment = SpeechTestEnvironment()
        let (task, request, recorder) = environment.startBufferTask(on: session, delegate: false).parts
        request.append(Script.buffer(seconds: 0.5))
        await environment.drain()
        #expect(recorder.terminalCalls == 1)
        request.append(Script.buffer(seconds: 0.5))
        request.endAudio()
        task.finish()
        task.cancel()
        await environment.drain()
        #expect(session.cancelCalls == 1)
        let calls = recorder.calls
        #expect(calls == [.result("partial", isFinal: false), .error(domain: "kAFAssistantErrorDomain", code: 203)])
        #expect(task.state == .completed)
        #expect(!task.isCancelled)
        #expect((task.error as NSError?)?.code == 203)
    }

    @Test func partialResultsOffDeliversOnlyTheFinal() async throws {
        let session = Self.helloWorldSession()
        let environment = SpeechTestEnvironment()
        let (_, request, recorder) = environment.startBufferTask(on: session, delegate: false) { request in
            request.shouldReportPartialResults = false
        }.parts
        request.append(Script.buffer(seconds: 1.2))
        request.endAudio()
        await environment.drain()
        #expect(recorder.terminalCalls == 1)
        #expect(recorder.calls == [.result("hello world", isFinal: true)])
        #expect(session.receivedOptions?.reportsVolatileResults == false)
    }

    @Test func callbacksRunOnTheRecognizersQueue() async throws {
        let session = Self.helloWorldSession()
        let environment = SpeechTestEnvironment()
        let (recognizer, queue) = environment.makeRecognizer(session)
        queue.maxConcurrentOperationCount = OperationQueue.defaultMaxConcurrentOperationCount
        let request = SFSpeechAudioBufferRecognitionRequest()
        let recorder = TaskRecorder()
        recognizer.recognitionTask(with: request, delegate: recorder)
        request.append(Script.buffer(seconds: 1.2))
        request.endAudio()
        await environment.drain()
        #expect(recorder.terminalCalls == 1)
        #expect(recorder.allCallsRan(on: queue))
        #expect(recorder.calls.last == .finishedSuccessfully(true))
    }

    @Test func notAuthorizedFailsWith1700() async throws {
        let session = Self.helloWorldSession()
        let environment = SpeechTestEnvironment()
        let (task, request, recorder) = environment.startBufferTask(on: session, delegate: false,
                                                                    authorization: .denied).parts
        request.append(Script.buffer(seconds: 1.2))
        await environment.drain()
        #expect(recorder.terminalCalls == 1)
        #expect(recorder.calls == [.error(domain: "kAFAssistantErrorDomain", code: 1700)])
        #expect(task.state == .completed)
        #expect(session.appendedSeconds == 0)
    }

    @Test func sessionThatCannotStartReportsAssetsNotInstalled() async throws {
        let environment = SpeechTestEnvironment()
        let (recognizer, _) = environment.makeRecognizer()
        recognizer.sessionFactory = .unavailable
        let recorder = TaskRecorder()
        let task = recognizer.recognitionTask(with: SFSpeechAudioBufferRecognitionRequest(), delegate: recorder)
        await environment.drain()
        #expect(recorder.terminalCalls == 1)
        #expect(recorder.calls == [.finishedSuccessfully(false)])
        let error = try #require(task.error) as NSError
        #expect(error.domain == "kLSRErrorDomain" && error.code == 102)
    }

    @Test func taskDoesNotRetainItsDelegate() async throws {
        let session = Self.helloWorldSession()
        let environment = SpeechTestEnvironment()
        let (recognizer, _) = environment.makeRecognizer(session)
        let request = SFSpeechAudioBufferRecognitionRequest()
        weak var weakRecorder: TaskRecorder?
        var task: SFSpeechRecognitionTask?
        do {
            let recorder = TaskRecorder()
            weakRecorder = recorder
            task = recognizer.recognitionTask(with: request, delegate: recorder)
        }
        #expect(weakRecorder == nil)
        request.append(Script.buffer(seconds: 1.2))
        request.endAudio()
        await environment.drain()
        #expect(task?.state == .completed)
        #expect(session.finishCalls == 1)
    }

    @Test func aRequestServesOneTask() async throws {
        let session = Self.helloWorldSession()
        let environment = SpeechTestEnvironment()
        let (recognizer, _) = environment.makeRecognizer(session)
        let request = SFSpeechAudioBufferRecognitionRequest()
        let first = TaskRecorder()
        recognizer.recognitionTask(with: request, resultHandler: first.handler)
        await environment.drain()
        #expect(request.feed.isAttached)
        let second = TaskRecorder()
        recognizer.recognitionTask(with: request, resultHandler: second.handler)
        await environment.drain()
        #expect(second.terminalCalls == 1)
        #expect(second.calls == [.error(domain: "kAFAssistantErrorDomain", code: 1100)])
    }
}
