import AVFoundation
import Foundation
import TestSupport
import Testing
@testable import Speech

/// A live capture whose ALSA device goes away mid-stream (real ALSA: a
/// `file` plugin that fails with -EIO), feeding a legacy buffer request from
/// an input tap: the task recognizes what it got, then ends with
/// `SFSpeechError.audioReadFailed`, handing over the text so far with the
/// error — no hang waiting for audio, no lost text. Scripted sessions stand
/// in for the engine (the model run is in the ModelTests).
@Suite(.serialized) struct SFSpeechAudioBufferRecognitionRequestDeviceVanishingTests {
    /// A 3 s tone microphone that vanishes after 1.5 s, tapped into `request`.
    private func capture(into request: SFSpeechAudioBufferRecognitionRequest) throws
        -> (AVAudioEngine, VanishingMicrophone) {
        let tone = (0..<48_000).map { Int16(6_000 * sin(Double($0) * 2 * .pi * 300 / 16_000)) }
        let microphone = try VanishingMicrophone(samples: tone, vanishAfterSeconds: 1.5)
        let engine = AVAudioEngine(inputSource: .alsa(device: microphone.deviceName,
                                                      configurationFile: microphone.configurationURL))
        let format = engine.inputNode.outputFormat(forBus: 0)
        engine.inputNode.installTap(onBus: 0, bufferSize: 1_024, format: format) { buffer, _ in request.append(buffer) }
        engine.prepare()
        try engine.start()
        return (engine, microphone)
    }

    private func expectDeviceError(_ error: (any Error)?) throws {
        let nsError = try #require(error) as NSError
        #expect(nsError.domain == SFSpeechErrorDomain && nsError.code == SFSpeechError.Code.audioReadFailed.rawValue)
        let reason = try #require(nsError.localizedFailureReason)
        #expect(reason.contains("went away mid-stream") && reason.contains("Reconnect the device"))
        #expect(reason.contains("vanishingmicplug"))
    }

    @Test func handlerGetsTheTextSoFarWithTheDeviceError() async throws {
        let session = SFSpeechRecognitionTaskTests.helloWorldSession()
        let environment = SpeechTestEnvironment()
        let (recognizer, _) = environment.makeRecognizer(session)
        let request = SFSpeechAudioBufferRecognitionRequest()
        let recorder = TaskRecorder()
        let task = recognizer.recognitionTask(with: request, resultHandler: recorder.handler)
        let (engine, microphone) = try capture(into: request)
        defer { engine.stop(); microphone.remove() }
        #expect(microphone.waitUntilVanished(timeout: hangGuardSeconds))
        // Real capture runs on ALSA's clock: wait for the end, then for the hops after it.
        #expect(await recorder.completion(within: hangGuardSeconds))
        await environment.drain()
        let calls = recorder.calls
        // The last call carries both: the final text, then the error.
        #expect(Array(calls.suffix(2)) == [.result("hello world", isFinal: true),
                                          .error(domain: SFSpeechErrorDomain, code: 2)], "\(calls)")
        #expect(calls.contains(.result("hello", isFinal: false)))
        #expect(task.state == .completed && !engine.isRunning)
        try expectDeviceError(task.error)
        // Audio stopped where the device did (1.5 s written out, plus what
        // the plugin read ahead), not at the end of the 3 s source.
        #expect(session.appendedSeconds >= 1.4 && session.appendedSeconds < 2.9, "\(session.appendedSeconds)")
        #expect(session.finishCalls == 1)
    }

    @Test func delegateHearsTheFinalRecognitionThenFailure() async throws {
        let session = SFSpeechRecognitionTaskTests.helloWorldSession()
        let environment = SpeechTestEnvironment()
        let (recognizer, _) = environment.makeRecognizer(session)
        let request = SFSpeechAudioBufferRecognitionRequest()
        let recorder = TaskRecorder()
        let task = recognizer.recognitionTask(with: request, delegate: recorder)
        let (engine, microphone) = try capture(into: request)
        defer { engine.stop(); microphone.remove() }
        #expect(await recorder.completion(within: hangGuardSeconds))
        await environment.drain()
        let calls = recorder.calls.filter { !$0.isProgress }
        #expect(Array(calls.suffix(2)) == [.finalRecognition("hello world"), .finishedSuccessfully(false)], "\(calls)")
        #expect(calls.contains(.finishedReading))
        try expectDeviceError(task.error)
    }
}
