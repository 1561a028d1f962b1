import Foundation
import Synchronization
import SpeechEngine
import SpeechEvaluation
import Testing
import TestSupport
@testable import Speech

/// The modern face through the real engine on real clips (whisper-base).
/// Slow in debug builds: they run with `SPEECHCOMPAT_MODEL_TESTS=1`, as
/// Scripts/test.sh runs every `*ModelTests` suite in release. Without
/// whisper-base installed they fail with the command that installs it.
@Suite("Modern face on the real engine",
       .enabled(if: Models.testsEnabled, Models.disabledReason),
       .serialized)
struct ModernModelTests {
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

    /// Word errors of `hypothesis` against `reference`, scored by SpeechEvaluation.
    private func wordErrors(_ hypothesis: String, _ reference: String) -> (errors: Int, words: Int) {
        let counts = TranscriptScorer().score(reference: reference, hypothesis: hypothesis, languageTag: "en").counts
        return (counts.errorCount, counts.referenceCount)
    }

    /// The finals of the engine's streaming recognizer for `clip`, with the
    /// options a transcriber with `settings` asks for: what the face must
    /// reproduce (it adds no recognition of its own).
    private func engineFinals(of clip: URL, settings: TranscriberSettings) async throws -> String {
        let file = try AVAudioFile(forReading: clip)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat,
                                                   frameCapacity: AVAudioFrameCount(file.length)))
        try file.read(into: buffer)
        let converter = BufferConversion()
        let samples = try converter.convert(buffer) + converter.finish()
        let options = try ConfigurationMapping.streamingOptions(for: settings.configuration(phrases: [], detector: nil),
                                                                 locale: settings.locale)
        let recognizer = StreamingRecognizer(accurate: try ModelCache.shared.transcriber(.whisperBase), options: options)
        recognizer.append(samples)
        recognizer.finish()
        var finals: [String] = []
        for await event in recognizer.events {
            if case .final(let hypothesis) = event { finals.append(hypothesis.text) }
        }
        return finals.joined(separator: " ")
    }

    @Test("each file entry point gives the engine's streaming transcript, close to the batch one",
          arguments: ["audio/librispeech-dev-clean/2412-153948-0000.wav", "audio/pocketsphinx/ps_sas01-0890.wav"])
    func fileEntryPoints(path: String) async throws {
        let clip = Fixtures.corpusClip(path)
        let batch = try ModelCache.shared.transcriber(.whisperBase).transcribe(file: clip).text
        let streaming = try await engineFinals(of: clip, settings: TranscriberSettings(locale: englishUS))
        for entryPoint in 0..<3 {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let results = collect(transcriber.results)
            var analyzer: SpeechAnalyzer?
            switch entryPoint {
            case 0:
                analyzer = try await SpeechAnalyzer(inputAudioFile: try AVAudioFile(forReading: clip),
                                                    modules: [transcriber], finishAfterFile: true)
            case 1:
                let started = SpeechAnalyzer(modules: [transcriber])
                try await started.start(inputAudioFile: try AVAudioFile(forReading: clip))
                try await started.finalizeAndFinishThroughEndOfInput()
                analyzer = started
            default:
                let sequenced = SpeechAnalyzer(modules: [transcriber])
                if let last = try await sequenced.analyzeSequence(from: try AVAudioFile(forReading: clip)) {
                    try await sequenced.finalizeAndFinish(through: last)
                } else {
                    await sequenced.cancelAndFinishNow()
                }
                analyzer = sequenced
            }
            let collected = try #require(await value(of: results, within: 300))
            #expect(collected.error == nil)
            let text = collected.elements.map { String($0.text.characters) }.joined()
            // The face reproduces the engine's streaming transcript exactly.
            #expect(words(text) == words(streaming), "modern: \(text) | engine: \(streaming)")
            // Streaming may cut utterances where batch decoding does not
            // (ps_sas01-0890: "…is the | need to be all disposed?"), so the
            // bound against batch decoding is looser.
            let (errors, count) = wordErrors(text, batch)
            #expect(Double(errors) <= max(1, 0.25 * Double(count)), "modern: \(text) | batch: \(batch)")
            withExtendedLifetime(analyzer) {}
        }
    }

    @Test("alternatives when asked, a Spanish clip, and regional locale equivalence")
    func alternativesAndLocales() async throws {
        let australian = try #require(await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "en_AU@rg=gbzzzz")))
        #expect(LocaleMapping.languageCode(of: australian) == "en")
        #expect(await SpeechTranscriber.installedLocales.contains { LocaleMapping.key(of: $0) == "es-ES" })
        let spanishLocale = try #require(await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "es")))
        let transcriber = SpeechTranscriber(locale: spanishLocale, preset: .transcriptionWithAlternatives)
        let results = collect(transcriber.results)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let clip = Fixtures.corpusClip("audio/other-lang/mls_es_13697_11991_000000.wav")
        let last = try #require(try await analyzer.analyzeSequence(from: try AVAudioFile(forReading: clip)))
        try await analyzer.finalizeAndFinish(through: last)
        let collected = try #require(await value(of: results, within: 300))
        #expect(collected.error == nil)
        let text = collected.elements.map { String($0.text.characters) }.joined()
        let reference = "la sorpresa y el disgusto que produjo a wentworth la substitución de una cuñada por otra"
        let (errors, count) = wordErrors(String(words(text).prefix(16).joined(separator: " ")), reference)
        #expect(Double(errors) <= 0.35 * Double(count), "transcript: \(text)")
        #expect(collected.elements.allSatisfy { $0.text == $0.alternatives[0] })

        // "Go forward 10 meters." has "ten" as a beam alternative.
        let english = SpeechTranscriber(locale: englishUS, preset: .transcriptionWithAlternatives)
        let englishResults = collect(english.results)
        let second = SpeechAnalyzer(modules: [english])
        let end = try #require(try await second.analyzeSequence(from: try AVAudioFile(forReading: Self.clip)))
        try await second.finalizeAndFinish(through: end)
        let alternatives = try #require(await value(of: englishResults, within: 120)).elements.flatMap(\.alternatives)
        #expect(alternatives.count > 1, "alternatives: \(alternatives)")
        #expect(Set(alternatives.map { String($0.characters) }).count == alternatives.count)
    }

    @Test("an unsupported locale fails the analysis with noModel everywhere")
    func unsupportedLocale() async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "tlh"), preset: .transcription)
        let results = collect(transcriber.results)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        do {
            try await analyzer.analyzeSequence(from: try AVAudioFile(forReading: Self.clip))
            Issue.record("An unsupported locale was analyzed.")
        } catch {
            #expect((error as? SFSpeechError)?.code == .noModel)
        }
        #expect((try #require(await value(of: results)).error as? SFSpeechError)?.code == .noModel)
        #expect(await AssetInventory.status(forModules: [transcriber]) == .unsupported)
    }

    @Test("finalize mid-stream on the real engine keeps every word once")
    func finalizeMidStreamReal() async throws {
        let clip = Fixtures.corpusClip("audio/librispeech-dev-clean/1272-128104-0000.wav")
        let transcriber = SpeechTranscriber(locale: englishUS, preset: .timeIndexedTranscriptionWithAlternatives)
        let results = collect(transcriber.results)
        let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(inputSequence: stream, modules: [transcriber])
        let buffers = try int16Buffers(of: clip, chunkSeconds: 0.5)
        // Cut between "quilter" and "is" (about 2.4 s into the clip is speech;
        // any cut works: the words on each side are kept once).
        for buffer in buffers.prefix(6) { continuation.yield(AnalyzerInput(buffer: buffer)) }
        try await analyzer.finalize(through: CMTime(value: 3, timescale: 1))
        #expect(await analyzer.volatileRange.map { $0.duration == .zero } == true)
        for buffer in buffers.dropFirst(6) { continuation.yield(AnalyzerInput(buffer: buffer)) }
        continuation.finish()
        try await analyzer.finalizeAndFinishThroughEndOfInput()
        let collected = try #require(await value(of: results, within: 300))
        let text = collected.elements.map { String($0.text.characters) }.joined()
        let reference = "mister quilter is the apostle of the middle classes and we are glad to welcome his gospel"
        let (errors, count) = wordErrors(text.replacingOccurrences(of: "Mr.", with: "mister"), reference)
        #expect(Double(errors) <= 0.25 * Double(count), "transcript: \(text)")
        let starts = collected.elements.flatMap { $0.text.runs.compactMap(\.audioTimeRange) }.map(\.start)
        #expect(starts == starts.sorted())
    }

    @Test("live capture: input tap → AVAudioConverter into bestAvailableAudioFormat → analyzer (ALSA file microphone)")
    func liveCapture() async throws {
        let folder = try Fixtures.temporaryDirectory("modern-live")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The clip as raw 16 kHz S16 for the ALSA `file` plugin (DESIGN.md).
        let source = try AVAudioFile(forReading: Self.clip, commonFormat: .pcmFormatInt16, interleaved: false)
        let clipFrames = Int(source.length)
        let whole = try #require(AVAudioPCMBuffer(pcmFormat: source.processingFormat,
                                                  frameCapacity: AVAudioFrameCount(clipFrames)))
        try source.read(into: whole)
        let raw = folder.appendingPathComponent("speech16k.s16")
        try Data(bytes: try #require(whole.int16ChannelData)[0], count: clipFrames * 2).write(to: raw)
        let configuration = folder.appendingPathComponent("testmic.conf")
        try """
        pcm.modernmic { type file slave.pcm "null" file "/dev/null" infile "\(raw.path)" format "raw" }
        pcm.modernmicplug { type plug slave { pcm "modernmic" format S16_LE rate 16000 channels 1 } }
        """.write(to: configuration, atomically: true, encoding: .utf8)
        setenv("SPEECHCOMPAT_ALSA_DEVICE", "modernmicplug", 1)
        setenv("SPEECHCOMPAT_ALSA_CONFIG", configuration.path, 1)
        defer {
            unsetenv("SPEECHCOMPAT_ALSA_DEVICE")
            unsetenv("SPEECHCOMPAT_ALSA_CONFIG")
        }

        // Apple's live pattern (WWDC25 sample), unchanged.
        let transcriber = SpeechTranscriber(locale: englishUS, preset: .progressiveTranscription)
        let analyzerFormat = try #require(await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]))
        let (inputSequence, inputBuilder) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(inputSequence: inputSequence, modules: [transcriber])
        let results = collect(transcriber.results)
        let audioEngine = AVAudioEngine()
        let inputNode = audioEngine.inputNode
        let inputFormat = inputNode.outputFormat(forBus: 0)
        let converter = try #require(AVAudioConverter(from: inputFormat, to: analyzerFormat))
        let captured = FrameCounter()
        inputNode.installTap(onBus: 0, bufferSize: 4_096, format: inputFormat) { buffer, _ in
            let ratio = analyzerFormat.sampleRate / inputFormat.sampleRate
            let capacity = AVAudioFrameCount((Double(buffer.frameLength) * ratio).rounded(.up)) + 16
            guard let converted = AVAudioPCMBuffer(pcmFormat: analyzerFormat, frameCapacity: capacity) else { return }
            var error: NSError?
            var supplied = false
            converter.convert(to: converted, error: &error) { _, status in
                if supplied {
                    status.pointee = .noDataNow
                    return nil
                }
                supplied = true
                status.pointee = .haveData
                return buffer
            }
            guard error == nil, converted.frameLength > 0 else { return }
            captured.add(Int(converted.frameLength))
            inputBuilder.yield(AnalyzerInput(buffer: converted))
        }
        audioEngine.prepare()
        try audioEngine.start()
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        while captured.count < clipFrames - 4_096, ContinuousClock.now < deadline {
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        audioEngine.stop()
        inputNode.removeTap(onBus: 0)
        inputBuilder.finish()
        try await analyzer.finalizeAndFinishThroughEndOfInput()
        let collected = try #require(await value(of: results, within: 120))
        #expect(collected.error == nil)
        let finals = collected.elements.filter(\.isFinal).map { String($0.text.characters) }.joined()
        #expect(words(finals).contains("forward"), "live transcript: \(finals)")
        #expect(captured.count >= clipFrames - 4_096)
    }
}

/// Frames captured by a tap, counted across threads.
final class FrameCounter: Sendable {
    private let value = Mutex(0)
    func add(_ frames: Int) { value.withLock { $0 += frames } }
    var count: Int { value.withLock { $0 } }
}
