import Foundation
import SpeechEngine
import Testing
import TestSupport
@testable import Speech

/// Whether the real-model tests run: whisper-base installed and asked for.
let modelTestsEnabled = ProcessInfo.processInfo.environment["SPEECHCOMPAT_MODEL_TESTS"] == "1"
    && AssetStore.default.isInstalled(.whisperBase)

/// The modern face through the real engine on real clips (whisper-base).
/// Slow in debug builds: enabled when whisper-base is installed and
/// `SPEECHCOMPAT_MODEL_TESTS=1` (Scripts/test.sh sets it for release runs).
@Suite("Modern face on the real engine",
       .enabled(if: modelTestsEnabled, "set SPEECHCOMPAT_MODEL_TESTS=1 with whisper-base installed"),
       .serialized)
struct ModernEngineTests {
    private static let clip = Fixtures.corpusClip("audio/pocketsphinx/ps_goforward.wav")

    private func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "'" }.map(String.init)
    }

    @Test("a file through analyzeSequence(from:) gives the clip's transcript with timed, confident words")
    func fileTranscript() async throws {
        let transcriber = SpeechTranscriber(locale: englishUS, transcriptionOptions: [],
                                            reportingOptions: [.alternativeTranscriptions],
                                            attributeOptions: [.audioTimeRange, .transcriptionConfidence])
        if let request = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await request.downloadAndInstall()
        }
        let results = collect(transcriber.results)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let last = try #require(try await analyzer.analyzeSequence(from: try AVAudioFile(forReading: Self.clip)))
        try await analyzer.finalizeAndFinish(through: last)
        let collected = try #require(await value(of: results, within: 120))
        #expect(collected.error == nil)
        let text = collected.elements.map { String($0.text.characters) }.joined()
        #expect(words(text) == ["go", "forward", "ten", "meters"] || words(text) == ["go", "forward", "10", "meters"])
        var previous = CMTime.zero
        for result in collected.elements {
            #expect(result.isFinal)
            #expect(!result.alternatives.isEmpty)
            for run in result.text.runs {
                guard let range = run.audioTimeRange else { continue }
                #expect(range.start >= previous && range.end <= last)
                previous = range.start
                let confidence = try #require(run.transcriptionConfidence)
                #expect(confidence > 0 && confidence <= 1)
            }
        }
    }

    /// The clip as 16 kHz mono Int16 buffers of `chunkSeconds`, the format
    /// `bestAvailableAudioFormat` gives.
    private func int16Buffers(of url: URL, chunkSeconds: Double) throws -> [AVAudioPCMBuffer] {
        let file = try AVAudioFile(forReading: url, commonFormat: .pcmFormatInt16, interleaved: false)
        #expect(file.processingFormat.sampleRate == 16_000)
        var buffers: [AVAudioPCMBuffer] = []
        while file.framePosition < file.length {
            let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat,
                                                       frameCapacity: AVAudioFrameCount(chunkSeconds * 16_000)))
            try file.read(into: buffer)
            if buffer.frameLength == 0 { break }
            buffers.append(buffer)
        }
        return buffers
    }

    @Test("a buffer stream gives volatile then final results whose ranges cover the audio in order")
    func bufferStream() async throws {
        let clip = Fixtures.corpusClip("audio/librispeech-dev-clean/1272-128104-0000.wav")
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en_GB"), preset: .timeIndexedProgressiveTranscription)
        let detector = SpeechDetector(detectionOptions: .init(sensitivityLevel: .medium), reportResults: true)
        let format = try #require(await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber, detector]))
        let results = collect(transcriber.results)
        let detections = collect(detector.results)
        let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(modules: [transcriber, detector])
        try await analyzer.prepareToAnalyze(in: format)
        for buffer in try int16Buffers(of: clip, chunkSeconds: 0.25) {
            #expect(buffer.format == format)
            continuation.yield(AnalyzerInput(buffer: buffer))
        }
        continuation.finish()
        let last = try #require(try await analyzer.analyzeSequence(stream))
        try await analyzer.finalizeAndFinish(through: last)
        let collected = try #require(await value(of: results, within: 300))
        #expect(collected.error == nil)
        let volatile = collected.elements.filter { !$0.isFinal }
        let finals = collected.elements.filter(\.isFinal)
        #expect(!volatile.isEmpty)
        #expect(!finals.isEmpty)
        // The first volatile result comes before the first final one.
        let firstFinal = try #require(collected.elements.firstIndex { $0.isFinal })
        #expect(collected.elements.firstIndex { !$0.isFinal }.map { $0 < firstFinal } == true)
        // Finals are disjoint, in order, and inside the audio.
        for (earlier, later) in zip(finals, finals.dropFirst()) {
            #expect(earlier.range.end <= later.range.start)
        }
        #expect(finals.first.map { $0.range.start >= .zero } == true)
        #expect(finals.last.map { $0.range.end <= last } == true)
        let text = finals.map { String($0.text.characters) }.joined()
        let expected = ["mister", "quilter", "is", "the", "apostle", "of", "the", "middle", "classes"]
        let got = words(text)
        #expect(expected.filter { got.contains($0) }.count >= 7, "transcript: \(text)")
        // The detector found speech.
        let detected = try #require(await value(of: detections, within: 10))
        #expect(detected.elements.contains { $0.speechDetected })
    }

    @Test("cancelAndFinishNow mid-stream stops the engine and ends the results")
    func cancelMidStream() async throws {
        let transcriber = SpeechTranscriber(locale: englishUS, preset: .progressiveTranscription)
        let results = collect(transcriber.results)
        let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(inputSequence: stream, modules: [transcriber])
        for buffer in try int16Buffers(of: Self.clip, chunkSeconds: 0.5).prefix(3) {
            continuation.yield(AnalyzerInput(buffer: buffer))
        }
        try await Task.sleep(nanoseconds: 200_000_000)
        await analyzer.cancelAndFinishNow()
        let collected = try #require(await value(of: results, within: 30))
        #expect(collected.error == nil)
        await #expect(throws: CancellationError.self) {
            try await analyzer.finalize(through: CMTime(value: 10, timescale: 1))
        }
        continuation.finish()
    }
}
