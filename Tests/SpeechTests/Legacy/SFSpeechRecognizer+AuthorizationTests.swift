import Foundation
import TestSupport
import Testing
@testable import Speech

/// Tasks started before or without authorization (API.md §4.1.1): refused
/// answers fail the task at once with kAFAssistantErrorDomain 1700 and a
/// reason saying how to fix it; no audio reaches the engine.
@Suite struct SFSpeechRecognizerAuthorizationTests {
    /// Starts a buffer task under `status` and returns what it delivered and
    /// the error it ended with.
    private func run(under status: SFSpeechRecognizerAuthorizationStatus, delegate: Bool)
        async throws -> (calls: [TaskRecorder.Call], error: NSError?, appended: Double) {
        let session = SFSpeechRecognitionTaskTests.helloWorldSession()
        let environment = SpeechTestEnvironment()
        let (task, request, recorder) = environment.startBufferTask(on: session, delegate: delegate,
                                                                    authorization: status).parts
        request.append(Script.buffer(seconds: 1.2))
        request.endAudio()
        await environment.drain()
        #expect(task.state == .completed)
        return (recorder.calls, task.error.map { $0 as NSError }, session.appendedSeconds)
    }

    @Test(arguments: [SFSpeechRecognizerAuthorizationStatus.notDetermined, .denied, .restricted])
    func refusedAnswersFailTheTaskWith1700(status: SFSpeechRecognizerAuthorizationStatus) async throws {
        let handler = try await run(under: status, delegate: false)
        #expect(handler.calls == [.error(domain: "kAFAssistantErrorDomain", code: 1700)])
        #expect(handler.appended == 0)
        let error = try #require(handler.error)
        #expect(error.localizedDescription == "Request is not authorized.")
        let reason = try #require(error.localizedFailureReason)
        #expect(reason.contains("\(status)") && reason.contains(AuthorizationStore.environmentKey))
        if status == .notDetermined { #expect(reason.contains("requestAuthorization")) }

        let delegated = try await run(under: status, delegate: true)
        #expect(delegated.calls == [.finishedSuccessfully(false)])
        #expect(delegated.error?.domain == "kAFAssistantErrorDomain" && delegated.error?.code == 1700)
        #expect(delegated.appended == 0)
    }

    @Test func authorizedTaskRecognizes() async throws {
        let result = try await run(under: .authorized, delegate: false)
        #expect(result.calls.last == .result("hello world", isFinal: true))
        #expect(result.error == nil && result.appended > 1)
    }

    /// What the default provider reads: a forced or remembered answer as it
    /// is; with no answer at all the first task is the first request (the
    /// emulated user says yes) and the answer is remembered.
    @Test func taskStartAnswersFromTheStore() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("speechcompat/speech-authorization")
        let forced = AuthorizationStore(fileURL: file, environment: [AuthorizationStore.environmentKey: "notDetermined"])
        #expect(forced.statusForNewTask() == .notDetermined)
        #expect(!FileManager.default.fileExists(atPath: file.path))

        let fresh = AuthorizationStore(fileURL: file, environment: [:])
        #expect(fresh.status() == .notDetermined)
        #expect(fresh.statusForNewTask() == .authorized)
        #expect(fresh.status() == .authorized)

        fresh.persist(.denied)
        #expect(fresh.statusForNewTask() == .denied)
        #expect(AuthorizationStore.refusalReason(for: .authorized) == nil)
    }
}
