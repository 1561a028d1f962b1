import Foundation
import SpeechEngine
import TestSupport
import Testing
@testable import Speech

/// `cancel()` and `finish()` in every state, and the one-minute limit.
@Suite struct SFSpeechRecognitionTaskLifecycleTests {
    typealias Fixture = (task: SFSpeechRecognitionTask, request: SFSpeechAudioBufferRecognitionRequest,
                         session: ScriptedBackend, recorder: TaskRecorder, environment: SpeechTestEnvironment)

    /// A delegate-based task driven to `state`, everything it delivered so far delivered.
    func task(in state: SFSpeechRecognitionTaskState, delegate: Bool = true,
              session: ScriptedBackend = SFSpeechRecognitionTaskTests.helloWorldSession(holdsFinish: true))
        async -> Fixture {
        let environment = SpeechTestEnvironment()
        let (task, request, recorder) = environment.startBufferTask(on: session, delegate: delegate).parts
        switch state {
        case .starting:
            break
        case .running:
            await environment.drain()
            request.append(Script.buffer(seconds: 1.2))
        case .finishing:
            await environment.drain()
            request.append(Script.buffer(seconds: 1.2))
            request.endAudio()
        case .completed:
            request.append(Script.buffer(seconds: 1.2))
            request.endAudio()
            session.releaseFinish()
        case .canceling:
            task.cancel()
        }
        if state != .starting { await environment.drain() }
        return (task, request, session, recorder, environment)
    }

    /// What the hello-world task has delivered when it reaches `state`
    /// (its finish held): nothing before audio, the partials after.
    static func deliveredBeforeActing(in state: SFSpeechRecognitionTaskState,
                                      delegate: Bool) -> [TaskRecorder.Call] {
        guard state == .running || state == .finishing else { return [] }
        return delegate
            ? [.detectedSpeech, .hypothesis("hello"), .processed(0.6), .hypothesis("hello world")]
            : [.result("hello", isFinal: false), .result("hello world", isFinal: false)]
    }

    @Test(arguments: [SFSpeechRecognitionTaskState.starting, .running, .finishing])
    func cancelDeliversCancellationOnceAndNoResults(state: SFSpeechRecognitionTaskState) async throws {
        let fixture = await task(in: state)
        #expect(fixture.task.state == state)
        let before = fixture.recorder.calls
        #expect(before == Self.deliveredBeforeActing(in: state, delegate: true))
        fixture.task.cancel()
        #expect(fixture.task.isCancelled)
        #expect(fixture.task.state == .canceling || fixture.task.state == .completed)
        fixture.session.releaseFinish()
        fixture.request.append(Script.buffer(seconds: 0.5))
        fixture.task.cancel()
        fixture.task.finish()
        await fixture.environment.drain()
        #expect(fixture.recorder.calls == before + [.cancelled, .finishedSuccessfully(false)])
        #expect(fixture.task.state == .completed)
        let error = try #require(fixture.task.error) as NSError
        #expect(error.domain == "kLSRErrorDomain" && error.code == 301)
        // The session is stopped whether it started before or after the cancel.
        #expect(fixture.session.cancelCalls == 1)
    }

    @Test(arguments: [SFSpeechRecognitionTaskState.starting, .running, .finishing])
    func cancelWithAHandlerGivesOne301(state: SFSpeechRecognitionTaskState) async throws {
        let fixture = await task(in: state, delegate: false)
        let before = fixture.recorder.calls
        #expect(before == Self.deliveredBeforeActing(in: state, delegate: false))
        fixture.task.cancel()
        fixture.session.releaseFinish()
        await fixture.environment.drain()
        #expect(fixture.recorder.calls == before + [.error(domain: "kLSRErrorDomain", code: 301)])
        #expect(fixture.recorder.results.allSatisfy { !$0.isFinal })
    }

    @Test func cancelAndFinishOnACompletedTaskDoNothing() async throws {
        let fixture = await task(in: .completed)
        let calls = fixture.recorder.calls
        #expect(calls.last == .finishedSuccessfully(true))
        fixture.task.cancel()
        fixture.task.finish()
        await fixture.environment.drain()
        #expect(fixture.recorder.calls == calls)
        #expect(fixture.session.cancelCalls == 0)
        #expect(!fixture.task.isCancelled)
        #expect(fixture.task.error == nil)
        #expect(fixture.task.state == .completed)
    }

    @Test func finishWhileStartingWithoutAudioIsNoSpeech() async throws {
        let fixture = await task(in: .starting, session: ScriptedBackend(holdsFinish: true))
        fixture.task.finish()
        #expect(fixture.task.isFinishing)
        await fixture.environment.drain()
        // Held: the session was asked to finish and nothing is delivered until it does.
        #expect(fixture.session.verbs == [.finish])
        #expect(fixture.recorder.calls.isEmpty)
        fixture.session.releaseFinish()
        await fixture.environment.drain()
        #expect((fixture.task.error as NSError?)?.code == 1110)
        #expect(fixture.recorder.calls == [.finishedReading, .finishedSuccessfully(false)])
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
        await fixture.environment.drain()
        #expect(fixture.recorder.calls == Self.deliveredBeforeActing(in: .running, delegate: true)
                + [.finishedReading, .finalRecognition("hello world"), .finishedSuccessfully(true)])
        #expect(fixture.session.finishCalls == 1)
    }

    @Test func serverStyleTaskStopsAtTheOneMinuteLimit() async throws {
        let session = ScriptedBackend(steps: [
            .init(atSeconds: 1, event: .speechStarted(atSeconds: 1)),
            .init(atSeconds: 30, event: .volatile(Script.hypothesis("first half", start: 1))),
        ], onFinish: [.final(Script.hypothesis("the first minute", start: 1)), .finished])
        let environment = SpeechTestEnvironment()
        let (task, request, recorder) = environment.startBufferTask(on: session).parts
        await environment.drain()
        for _ in 0..<70 { request.append(Script.buffer(seconds: 1, amplitude: 0)) }
        await environment.drain()
        // The face stops taking audio at exactly 60 s and finishes the session.
        #expect(abs(session.appendedSeconds - 60) < 1e-9)
        #expect(session.finishCalls == 1)
        #expect(session.commits.isEmpty)
        #expect(request.feed.isEnded)
        let calls = recorder.calls
        #expect(calls == [
            .detectedSpeech, .hypothesis("first half"), .finishedReading, .finalRecognition("the first minute"),
            .finishedSuccessfully(true),
        ])
        #expect(task.isFinishing)
        #expect(task.error == nil)
    }

    @Test func rollingModeKeepsTakingAudioPastTheLimit() async throws {
        let session = ScriptedBackend(steps: [
            .init(atSeconds: 60, event: .final(Script.hypothesis("minute one", start: 1))),
        ], onFinish: [.final(Script.hypothesis("minute two", start: 61)), .finished])
        let environment = SpeechTestEnvironment()
        let (_, request, recorder) = environment.startBufferTask(on: session, delegate: false) { request in
            request.rollsOverAtRecognitionLimit = true
        }.parts
        // The session is attached before audio comes, so the audio reaches it buffer by buffer.
        await environment.drain()
        for _ in 0..<70 { request.append(Script.buffer(seconds: 1, amplitude: 0)) }
        await environment.drain()
        #expect(!request.feed.isEnded)
        // At the limit the face commits through it and keeps taking audio; the
        // commit through all the audio heard finalizes what is pending, each
        // final shown as a partial while audio still comes.
        #expect(session.commits == [60])
        #expect(abs(session.appendedSeconds - 70) < 1e-6)
        #expect(recorder.calls == [.result("minute one", isFinal: false),
                                   .result("minute one minute two", isFinal: false)])
        request.endAudio()
        await environment.drain()
        #expect(recorder.calls.dropFirst(2) == [.result("minute one minute two", isFinal: true)])
    }

    @Test func audioGivenBeforeTheSessionRollsAtEveryLimitItCrosses() async throws {
        let session = ScriptedBackend(steps: [], onFinish: [.final(Script.hypothesis("all of it", start: 1)), .finished])
        let environment = SpeechTestEnvironment()
        let (_, request, recorder) = environment.startBufferTask(on: session, delegate: false) { request in
            request.rollsOverAtRecognitionLimit = true
        }.parts
        // Appended before the session is attached: the audio reaches it as one block.
        for _ in 0..<150 { request.append(Script.buffer(seconds: 1, amplitude: 0)) }
        request.endAudio()
        await environment.drain()
        #expect(session.commits == [60, 120], "one commit at each limit the block crosses")
        #expect(abs(session.appendedSeconds - 150) < 1e-6)
        #expect(recorder.results.last?.isFinal == true)
    }

    @Test func onDeviceTasksHaveNoLimitAndNoVoiceAnalytics() async throws {
        let session = SFSpeechRecognitionTaskTests.helloWorldSession()
        let environment = SpeechTestEnvironment()
        let (_, request, recorder) = environment.startBufferTask(on: session, delegate: false) { request in
            request.requiresOnDeviceRecognition = true
        }.parts
        request.append(Script.buffer(seconds: 1.2))
        request.endAudio()
        await environment.drain()
        #expect(recorder.terminalCalls == 1)
        #expect(request.recognitionLimitSeconds == nil)
        #expect(session.commits.isEmpty)
        let final = try #require(recorder.results.last)
        #expect(final.isFinal)
        #expect(final.speechRecognitionMetadata != nil)
        #expect(final.speechRecognitionMetadata?.voiceAnalytics == nil)
    }
}
