import Foundation
import SpeechEngine
import Testing
@testable import Speech

/// `cancel()` and `finish()` in every state, and the one-minute limit.
@Suite struct SFSpeechRecognitionTaskLifecycleTests {
    typealias Fixture = (task: SFSpeechRecognitionTask, request: SFSpeechAudioBufferRecognitionRequest,
                         session: ScriptedSession, recorder: TaskRecorder)

    /// A delegate-based task driven to `state`.
    func task(in state: SFSpeechRecognitionTaskState, delegate: Bool = true,
              session: ScriptedSession = SFSpeechRecognitionTaskTests.helloWorldSession(holdsFinish: true))
        async -> Fixture {
        let (recognizer, _) = makeRecognizer(session)
        let request = SFSpeechAudioBufferRecognitionRequest()
        let recorder = TaskRecorder()
        let task = delegate ? recognizer.recognitionTask(with: request, delegate: recorder)
            : recognizer.recognitionTask(with: request, resultHandler: recorder.handler)
        switch state {
        case .starting:
            break
        case .running:
            request.append(Script.buffer(seconds: 1.2))
            await recorder.waitUntil { recorder.calls.contains(.hypothesis("hello world"))
                || recorder.calls.contains(.result("hello world", isFinal: false)) }
        case .finishing:
            request.append(Script.buffer(seconds: 1.2))
            request.endAudio()
            await recorder.waitUntil { session.finishCalls == 1 }
            // What the session reported about the audio is delivered before the test acts.
            await recorder.waitUntil { recorder.calls.contains(.hypothesis("hello world"))
                || recorder.calls.contains(.result("hello world", isFinal: false)) }
        case .completed:
            request.append(Script.buffer(seconds: 1.2))
            request.endAudio()
            session.releaseFinish()
            await recorder.waitForCompletion()
            _ = await recorder.settle()
        case .canceling:
            task.cancel()
        }
        return (task, request, session, recorder)
    }

    @Test(arguments: [SFSpeechRecognitionTaskState.starting, .running, .finishing])
    func cancelDeliversCancellationOnceAndNoResults(state: SFSpeechRecognitionTaskState) async throws {
        let fixture = await task(in: state)
        #expect(fixture.task.state == state)
        let before = fixture.recorder.calls.count
        fixture.task.cancel()
        #expect(fixture.task.isCancelled)
        #expect(fixture.task.state == .canceling || fixture.task.state == .completed)
        fixture.session.releaseFinish()
        fixture.request.append(Script.buffer(seconds: 0.5))
        fixture.task.cancel()
        fixture.task.finish()
        #expect(await fixture.recorder.waitForCompletion())
        let after = Array(await fixture.recorder.settle().dropFirst(before))
        #expect(after == [.cancelled, .finishedSuccessfully(false)])
        #expect(fixture.task.state == .completed)
        let error = try #require(fixture.task.error) as NSError
        #expect(error.domain == "kLSRErrorDomain" && error.code == 301)
        // The session is stopped whether it started before or after the cancel.
        #expect(await fixture.recorder.waitUntil { fixture.session.cancelCalls == 1 })
    }

    @Test(arguments: [SFSpeechRecognitionTaskState.starting, .running, .finishing])
    func cancelWithAHandlerGivesOne301(state: SFSpeechRecognitionTaskState) async throws {
        let fixture = await task(in: state, delegate: false)
        let before = fixture.recorder.calls.count
        fixture.task.cancel()
        fixture.session.releaseFinish()
        #expect(await fixture.recorder.waitForCompletion())
        let after = Array(await fixture.recorder.settle().dropFirst(before))
        #expect(after == [.error(domain: "kLSRErrorDomain", code: 301)])
        #expect(fixture.recorder.results.allSatisfy { !$0.isFinal })
    }

    @Test func cancelAndFinishOnACompletedTaskDoNothing() async throws {
        let fixture = await task(in: .completed)
        let calls = fixture.recorder.calls
        #expect(calls.last == .finishedSuccessfully(true))
        fixture.task.cancel()
        fixture.task.finish()
        #expect(await fixture.recorder.settle() == calls)
        #expect(!fixture.task.isCancelled)
        #expect(fixture.task.error == nil)
        #expect(fixture.task.state == .completed)
    }

    @Test func finishWhileStartingWithoutAudioIsNoSpeech() async throws {
        let fixture = await task(in: .starting, session: ScriptedSession(holdsFinish: true))
        fixture.task.finish()
        #expect(fixture.task.isFinishing)
        fixture.session.releaseFinish()
        #expect(await fixture.recorder.waitForCompletion())
        #expect((fixture.task.error as NSError?)?.code == 1110)
        let calls = await fixture.recorder.settle()
        #expect(calls == [.finishedReading, .finishedSuccessfully(false)])
    }

    @Test func finishWhileRunningDeliversTheFinalAndIgnoresLaterAudio() async throws {
        let fixture = await task(in: .running)
        fixture.task.finish()
        #expect(fixture.task.state == .finishing)
        #expect(fixture.task.isFinishing)
        let appended = fixture.session.appendedSeconds
        fixture.request.append(Script.buffer(seconds: 2))
        #expect(fixture.session.appendedSeconds == appended)
        fixture.task.finish()
        fixture.session.releaseFinish()
        #expect(await fixture.recorder.waitForCompletion())
        #expect(await fixture.recorder.settle().filter { !$0.isProgress }.suffix(3)
                == [.finishedReading, .finalRecognition("hello world"), .finishedSuccessfully(true)])
        #expect(fixture.session.finishCalls == 1)
    }

    @Test func serverStyleTaskStopsAtTheOneMinuteLimit() async throws {
        let session = ScriptedSession(steps: [
            .init(atSeconds: 1, event: .speechDetected(atSeconds: 1)),
            .init(atSeconds: 30, event: .volatile(Script.hypothesis("first half", start: 1))),
        ], onFinish: [.final(Script.hypothesis("the first minute", start: 1)), .finished])
        let (recognizer, _) = makeRecognizer(session)
        let request = SFSpeechAudioBufferRecognitionRequest()
        let recorder = TaskRecorder()
        let task = recognizer.recognitionTask(with: request, delegate: recorder)
        for _ in 0..<70 { request.append(Script.buffer(seconds: 1, amplitude: 0)) }
        #expect(await recorder.waitForCompletion())
        // The face stops taking audio at exactly 60 s and finishes the session.
        #expect(abs(session.appendedSeconds - 60) < 1e-9)
        #expect(session.finishCalls == 1)
        #expect(session.commits.isEmpty)
        #expect(request.feed.isEnded)
        let calls = await recorder.settle().filter { !$0.isProgress }
        #expect(calls == [
            .detectedSpeech, .hypothesis("first half"), .finishedReading, .finalRecognition("the first minute"),
            .finishedSuccessfully(true),
        ])
        #expect(task.isFinishing)
        #expect(task.error == nil)
    }

    @Test func rollingModeKeepsTakingAudioPastTheLimit() async throws {
        let session = ScriptedSession(steps: [
            .init(atSeconds: 60, event: .final(Script.hypothesis("minute one", start: 1))),
        ], onFinish: [.final(Script.hypothesis("minute two", start: 61)), .finished])
        let (recognizer, _) = makeRecognizer(session)
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.rollsOverAtRecognitionLimit = true
        let recorder = TaskRecorder()
        recognizer.recognitionTask(with: request, resultHandler: recorder.handler)
        for _ in 0..<70 { request.append(Script.buffer(seconds: 1, amplitude: 0)) }
        #expect(!request.feed.isEnded)
        request.endAudio()
        #expect(await recorder.waitForCompletion())
        // At the limit the face commits through it and keeps taking audio.
        #expect(session.commits == [60])
        #expect(session.appendedSeconds >= 70)
        #expect(await recorder.settle().last == .result("minute one minute two", isFinal: true))
    }

    @Test func onDeviceTasksHaveNoLimitAndNoVoiceAnalytics() async throws {
        let session = SFSpeechRecognitionTaskTests.helloWorldSession()
        let (recognizer, _) = makeRecognizer(session)
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.requiresOnDeviceRecognition = true
        let recorder = TaskRecorder()
        recognizer.recognitionTask(with: request, resultHandler: recorder.handler)
        request.append(Script.buffer(seconds: 1.2))
        request.endAudio()
        #expect(await recorder.waitForCompletion())
        #expect(request.recognitionLimitSeconds == nil)
        #expect(session.commits.isEmpty)
        let final = try #require(recorder.results.last)
        #expect(final.isFinal)
        #expect(final.speechRecognitionMetadata != nil)
        #expect(final.speechRecognitionMetadata?.voiceAnalytics == nil)
    }
}
