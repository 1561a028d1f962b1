import Foundation
import Speech
import TestSupport
import Testing

/// Real speech, the real model and real ALSA: a microphone playing a 7 s
/// clip goes away after 4 s. Each face ends with `audioReadFailed` and keeps
/// the words spoken before — the first half of the sentence, none of its end.
@Suite(.enabled(if: Models.testsEnabled, Models.disabledReason), .serialized)
struct DeviceVanishingModelTests {
    /// "and mister john dashwood had then leisure to consider how much there
    /// might be prudently in his power to do for them" (7.1 s).
    private func microphone() throws -> (VanishingMicrophone, ModelTestSupport.Clip) {
        let clip = try ModelTestSupport.clip("ps_sas01-0870")
        let folder = try Fixtures.temporaryDirectory("vanishing-clip")
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("clip.s16")
        let sox = Process()
        sox.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
        sox.arguments = [clip.url.path, "-t", "raw", "-e", "signed-integer", "-b", "16", "-c", "1", "-r", "16000", raw.path]
        try sox.run()
        sox.waitUntilExit()
        let samples = try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        return (try VanishingMicrophone(samples: samples, vanishAfterSeconds: 4.0), clip)
    }

    private func expectFirstHalf(_ text: String) {
        let lowered = text.lowercased()
        #expect(lowered.contains("dashwood"), "\(text)")
        #expect(!lowered.contains("for them") && !lowered.contains("his power"), "\(text)")
    }

    /// Apple's SpokenWord handler: show the result, stop on error or final.
    @Test func legacyTaskKeepsTheWordsBeforeTheDeviceWent() async throws {
        let (microphone, _) = try microphone()
        defer { microphone.remove() }
        let engine = AVAudioEngine(inputSource: .alsa(device: microphone.deviceName,
                                                      configurationFile: microphone.configurationURL))
        let recognizer = try #require(SFSpeechRecognizer(locale: Locale(identifier: "en-US")))
        recognizer.queue = OperationQueue()
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.shouldReportPartialResults = true
        let outcome = Outcome()
        recognizer.recognitionTask(with: request) { result, error in
            if let result { outcome.text = result.bestTranscription.formattedString }
            if let error { outcome.error = error }
            if error != nil || result?.isFinal == true { outcome.done = true }
        }
        let input = engine.inputNode
        input.installTap(onBus: 0, bufferSize: 1_024, format: input.outputFormat(forBus: 0)) { buffer, _ in
            request.append(buffer)
        }
        try engine.start()
        let started = Date()
        while !outcome.done, Date().timeIntervalSince(started) < 900 { try await Task.sleep(for: .milliseconds(50)) }
        engine.stop()
        let error = try #require(outcome.error) as NSError
        #expect(error.domain == SFSpeechErrorDomain && error.code == 2)
        expectFirstHalf(outcome.text)
    }

    /// The WWDC25 pattern: tap → converter → AnalyzerInput, finals collected
    /// from `results`, `finalizeAndFinishThroughEndOfInput()` awaited.
    @Test func analyzerKeepsTheWordsBeforeTheDeviceWent() async throws {
        let (microphone, _) = try microphone()
        defer { microphone.remove() }
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription)
        let analyzerFormat = try #require(await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]))
        let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(inputSequence: stream, modules: [transcriber])
        let finals = Task {
            var text = ""
            do {
                for try await result in transcriber.results where result.isFinal { text += String(result.text.characters) }
                return (text, nil as (any Error)?)
            } catch {
                return (text, error)
            }
        }
        let engine = AVAudioEngine(inputSource: .alsa(device: microphone.deviceName,
                                                      configurationFile: microphone.configurationURL))
        let input = engine.inputNode
        let inputFormat = input.outputFormat(forBus: 0)
        let converter = try #require(AVAudioConverter(from: inputFormat, to: analyzerFormat))
        input.installTap(onBus: 0, bufferSize: 1_600, format: inputFormat) { buffer, _ in
            guard let output = AVAudioPCMBuffer(pcmFormat: analyzerFormat, frameCapacity: buffer.frameLength) else { return }
            try? converter.convert(to: output, from: buffer)
            continuation.yield(AnalyzerInput(buffer: output))
        }
        try engine.start()
        await #expect(throws: SFSpeechError(.audioReadFailed)) { try await analyzer.finalizeAndFinishThroughEndOfInput() }
        engine.stop()
        continuation.finish()
        let (text, error) = await finals.value
        #expect((error as? SFSpeechError)?.code == .audioReadFailed)
        expectFirstHalf(text)
    }
}

/// What the result handler saw, across threads.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var storedText = ""
    private var storedError: (any Error)?
    private var finished = false
    var text: String {
        get { lock.withLock { storedText } }
        set { lock.withLock { storedText = newValue } }
    }
    var error: (any Error)? {
        get { lock.withLock { storedError } }
        set { lock.withLock { storedError = newValue } }
    }
    var done: Bool {
        get { lock.withLock { finished } }
        set { lock.withLock { finished = newValue } }
    }
}
