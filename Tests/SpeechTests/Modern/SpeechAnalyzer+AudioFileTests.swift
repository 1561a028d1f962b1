import Foundation
import SpeechEngine
import Testing
import TestSupport
@testable import Speech

/// File input: every entry point converts the file to the engine's format
/// and follows the file's lifecycle rules (scripted sessions, real audio file).
@Suite("SpeechAnalyzer audio files (scripted sessions)")
struct SpeechAnalyzerAudioFileTests {
    /// A short real clip (16 kHz mono, 2.786 s).
    private static let clip = Fixtures.corpusClip("audio/pocketsphinx/ps_goforward.wav")

    /// The clip written at 44.1 kHz stereo into `folder`.
    private func stereoCopy(in folder: URL) throws -> (url: URL, seconds: Double) {
        let source = try AVAudioFile(forReading: Self.clip)
        let frames = AVAudioFrameCount(source.length)
        let mono = try #require(AVAudioPCMBuffer(pcmFormat: source.processingFormat, frameCapacity: frames))
        try source.read(into: mono)
        let seconds = Double(mono.frameLength) / source.processingFormat.sampleRate
        let url = folder.appendingPathComponent("stereo44k.wav")
        let stereo = try #require(AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2))
        let outFrames = AVAudioFrameCount(seconds * 44_100)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: stereo, frameCapacity: outFrames))
        buffer.frameLength = outFrames
        let input = try #require(mono.floatChannelData?[0])
        for frame in 0..<Int(outFrames) {
            let sample = input[min(Int(mono.frameLength) - 1, Int(Double(frame) * 16_000 / 44_100))]
            buffer.floatChannelData?[0][frame] = sample
            buffer.floatChannelData?[1][frame] = sample
        }
        let file = try AVAudioFile(forWriting: url, settings: stereo.settings)
        try file.write(from: buffer)
        return (url, Double(outFrames) / 44_100)
    }

    @Test("analyzeSequence(from:) converts the whole file and returns its end time")
    func analyzeFile() async throws {
        let session = ScriptedBackend(steps: [], onFinish: [.final(Script.hypothesis("go forward ten meters")), .finished])
        let environment = SpeechTestEnvironment([session])
        let folder = try Fixtures.temporaryDirectory("modern-file")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (url, duration) = try stereoCopy(in: folder)
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let results = collect(transcriber.results)
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            let last = try #require(try await analyzer.analyzeSequence(from: try AVAudioFile(forReading: url)))
            #expect(abs(seconds(last) - duration) < 0.01)
            #expect(abs(session.appendedSeconds - duration) < 0.01)
            try await analyzer.finalizeAndFinish(through: last)
            let texts = try #require(await value(of: results)).elements.map { String($0.text.characters) }
            #expect(texts == ["go forward ten meters"])
        }
    }

    @Test("init(inputAudioFile:finishAfterFile: true) finishes by itself")
    func finishAfterFile() async throws {
        let session = ScriptedBackend(steps: [], onFinish: [.final(Script.hypothesis("go forward")), .finished])
        let environment = SpeechTestEnvironment([session])
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let results = collect(transcriber.results)
            let analyzer = try await SpeechAnalyzer(inputAudioFile: try AVAudioFile(forReading: Self.clip),
                                                    modules: [transcriber], finishAfterFile: true)
            let (elements, error) = try #require(await value(of: results))
            #expect(error == nil)
            #expect(elements.map { String($0.text.characters) } == ["go forward"])
            #expect(abs(session.appendedSeconds - 2.786) < 0.01)
            withExtendedLifetime(analyzer) {}
        }
    }

    @Test("start(inputAudioFile:) without finishAfterFile leaves the results open")
    func fileWithoutFinish() async throws {
        let environment = SpeechTestEnvironment()
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let results = collect(transcriber.results)
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            try await analyzer.start(inputAudioFile: try AVAudioFile(forReading: Self.clip))
            try await analyzer.finalize(through: CMTime(value: 2, timescale: 1))
            await environment.drain()
            #expect(!transcriber.output.isFinished)
            #expect(environment.handedOut.first?.finishCalls == 0)
            try await analyzer.finalizeAndFinishThroughEndOfInput()
            #expect(try #require(await value(of: results)).error == nil)
        }
    }

    @Test("an empty file gives nil; a closed file fails with audioReadFailed")
    func emptyAndClosedFiles() async throws {
        let folder = try Fixtures.temporaryDirectory("modern-file")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("empty.wav")
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1))
        do { _ = try AVAudioFile(forWriting: url, settings: format.settings) }
        try await withModernEnvironment {
            let analyzer = SpeechAnalyzer(modules: [SpeechTranscriber(locale: englishUS, preset: .transcription)])
            #expect(try await analyzer.analyzeSequence(from: try AVAudioFile(forReading: url)) == nil)
            let closed = try AVAudioFile(forReading: Self.clip)
            closed.close()
            do {
                try await analyzer.analyzeSequence(from: closed)
                Issue.record("A closed file was analyzed.")
            } catch {
                #expect((error as? SFSpeechError)?.code == .audioReadFailed)
            }
            await analyzer.cancelAndFinishNow()
        }
    }
}
