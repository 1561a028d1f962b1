import AVFoundation
import Foundation
import SpeechEngine
import TestSupport
import Testing
@testable import Speech

/// A live capture whose ALSA device goes away mid-stream (real ALSA: a
/// `file` plugin that fails with -EIO), feeding an analyzer from an input tap
/// the WWDC25 way: the analysis finalizes what it consumed (its final results
/// are published), then fails with `audioReadFailed`, thrown from the waiting
/// method and the result sequence — the app's `finalizeAndFinishThroughEndOfInput()`
/// does not wait forever for an input stream nobody will end.
@Suite(.serialized) struct SpeechAnalyzerDeviceVanishingTests {
    @Test func analysisKeepsItsFinalTextAndFailsWithTheDeviceError() async throws {
        let session = ScriptedBackend(steps: [
            .init(atSeconds: 0.5, event: .volatile(Script.hypothesis("hello", start: 0.2))),
            .init(atSeconds: 1.0, event: .volatile(Script.hypothesis("hello world", start: 0.2))),
        ], onFinish: [.final(Script.hypothesis("hello world", start: 0.2)), .finished])
        try await withModernEnvironment(SpeechTestEnvironment([session])) {
            let tone = (0..<48_000).map { Int16(6_000 * sin(Double($0) * 2 * .pi * 300 / 16_000)) }
            let microphone = try VanishingMicrophone(samples: tone, vanishAfterSeconds: 1.5)
            defer { microphone.remove() }
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .progressiveTranscription)
            let results = collect(transcriber.results)
            let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
            let analyzer = SpeechAnalyzer(inputSequence: stream, modules: [transcriber])
            let engine = AVAudioEngine(inputSource: .alsa(device: microphone.deviceName,
                                                          configurationFile: microphone.configurationURL))
            defer { engine.stop() }
            let format = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1,
                                                    interleaved: false))
            engine.inputNode.installTap(onBus: 0, bufferSize: 1_600, format: format) { buffer, _ in
                continuation.yield(AnalyzerInput(buffer: buffer))
            }
            try engine.start()
            // The app never ends the input stream: only the device failure can end this.
            do {
                try await analyzer.finalizeAndFinishThroughEndOfInput()
                Issue.record("finalizeAndFinishThroughEndOfInput returned without the device error")
            } catch let error as SFSpeechError {
                #expect(error.code == .audioReadFailed)
                let reason = (error as NSError).localizedFailureReason ?? ""
                #expect(reason.contains("went away mid-stream") && reason.contains("vanishingmicplug"))
            }
            let (elements, error) = try #require(await value(of: results))
            #expect((error as? SFSpeechError)?.code == .audioReadFailed)
            let finals = elements.filter(\.isFinal).map { String($0.text.characters) }
            #expect(finals == ["hello world"], "\(elements.map { String($0.text.characters) })")
            #expect(session.appendedSeconds >= 1.4 && session.appendedSeconds < 2.9, "\(session.appendedSeconds)")
            #expect(session.commits.count == 1)
            // Later calls throw the same error; nothing hangs.
            await #expect(throws: SFSpeechError(.audioReadFailed)) { try await analyzer.finalize(through: nil) }
            continuation.finish()
        }
    }
}
