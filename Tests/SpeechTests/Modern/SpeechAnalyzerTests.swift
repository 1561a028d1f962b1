import Foundation
import SpeechEngine
import TestSupport
import Testing
@testable import Speech

/// The analyzer's lifecycle over scripted engine sessions: ordering of
/// volatile and final results, finishing in every order, errors.
@Suite("SpeechAnalyzer lifecycle (scripted sessions)")
struct SpeechAnalyzerTests {
    private func progressiveSession() -> ScriptedBackend {
        ScriptedBackend(steps: [
            .init(atSeconds: 0.6, event: .volatile(Script.hypothesis("hello", start: 0.2))),
            .init(atSeconds: 1.0, event: .volatile(Script.hypothesis("hello word", start: 0.2))),
            .init(atSeconds: 1.5, event: .final(Script.hypothesis("hello world", start: 0.2))),
            .init(atSeconds: 2.0, event: .volatile(Script.hypothesis("how", start: 1.2))),
        ], onFinish: [.final(Script.hypothesis("how are you", start: 1.2)), .finished])
    }

    @Test("volatile results come first, the final replaces them, and finals are committed once")
    func volatileThenFinal() async throws {
        let environment = SpeechTestEnvironment([progressiveSession()])
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .progressiveTranscription)
            let results = collect(transcriber.results)
            let feed = environment.inputFeed()
            let analyzer = SpeechAnalyzer(inputSequence: feed.stream, modules: [transcriber])
            feed.yield(seconds: 2.5)
            feed.end()
            try await analyzer.finalizeAndFinishThroughEndOfInput()
            let (elements, error) = try #require(await value(of: results))
            #expect(error == nil)
            let texts = elements.map { String($0.text.characters) }
            #expect(texts == ["hello", "hello word", "hello world", " how", " how are you"])
            #expect(elements.map(\.isFinal) == [false, false, true, false, true])
            // The final result covers the volatile results' range.
            #expect(elements[2].range.start == elements[0].range.start)
            #expect(abs(seconds(elements[2].range.end) - 1.0) < 1e-6)
            // Final ranges are disjoint and increasing.
            let finals = elements.filter(\.isFinal)
            #expect(finals[0].range.end <= finals[1].range.start)
            // Volatile results say how far results are final.
            #expect(abs(seconds(elements[3].resultsFinalizationTime) - 1.0) < 1e-6)
        }
    }

    @Test("without volatileResults only final results are published")
    func finalsOnly() async throws {
        let environment = SpeechTestEnvironment([progressiveSession()])
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let results = collect(transcriber.results)
            let feed = environment.inputFeed()
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            feed.yield(seconds: 2.5)
            feed.end()
            let last = try await analyzer.analyzeSequence(feed.stream)
            #expect(last.map(seconds) == 2.5)
            try await analyzer.finalizeAndFinish(through: try #require(last))
            let (elements, error) = try #require(await value(of: results))
            #expect(error == nil)
            #expect(elements.map { String($0.text.characters) } == ["hello world", " how are you"])
            let allFinal = elements.allSatisfy { $0.isFinal }
            #expect(allFinal)
            #expect(environment.requestedOptions.first?.reportsVolatileResults == false)
        }
    }

    @Test("ending the input sequence does not finish the analyzer")
    func endingInputDoesNotFinish() async throws {
        let environment = SpeechTestEnvironment([progressiveSession()])
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .progressiveTranscription)
            let results = collect(transcriber.results)
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            let feed = environment.inputFeed()
            feed.yield(seconds: 1.0)
            feed.end()
            _ = try await analyzer.analyzeSequence(feed.stream)
            // The result sequence stays open: nothing finished it.
            await environment.drain()
            #expect(!transcriber.output.isFinished)
            #expect(environment.handedOut.first?.finishCalls == 0)
            await analyzer.cancelAndFinishNow()
            let (_, error) = try #require(await value(of: results))
            #expect(error == nil)
        }
    }

    @Test("finalize(through:) mid-stream commits through that time on the same backend, later audio continues")
    func finalizeMidStream() async throws {
        let session = ScriptedBackend(steps: [
            .init(atSeconds: 0.8, event: .volatile(Script.hypothesis("one two", start: 0.1))),
            .init(atSeconds: 2.0, event: .final(Script.hypothesis("four", start: 1.2))),
        ], onFinish: [.final(Script.hypothesis("one two three", start: 0.1, spacing: 0.3)), .finished])
        let environment = SpeechTestEnvironment([session])
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .timeIndexedProgressiveTranscription)
            let results = collect(transcriber.results)
            let feed = environment.inputFeed()
            let analyzer = SpeechAnalyzer(inputSequence: feed.stream, modules: [transcriber])
            feed.yield(seconds: 1.0)
            try await analyzer.finalize(through: CMTime(value: 1, timescale: 1))
            #expect(session.commits == [1.0])
            #expect(session.finishCalls == 0)
            #expect(await analyzer.volatileRange.map { $0.duration == .zero } == true)
            feed.yield(seconds: 1.0)
            feed.end()
            try await analyzer.finalizeAndFinishThroughEndOfInput()
            let (elements, error) = try #require(await value(of: results))
            #expect(error == nil)
            let finals = elements.filter(\.isFinal)
            #expect(finals.map { String($0.text.characters) } == ["one two three", " four"])
            // One backend for the analyzer's life: stream time is timeline time.
            let run = try #require(finals[1].text.runs.first { $0.audioTimeRange != nil })
            #expect(abs(seconds(try #require(run.audioTimeRange).start) - 1.2) < 1e-6)
            #expect(environment.handedOut.count == 1)
            #expect(session.commits == [1.0, 2.0])
        }
    }

    @Test("cancelAndFinishNow before any input ends results and releases waiters")
    func cancelBeforeInput() async throws {
        let environment = SpeechTestEnvironment()
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let results = collect(transcriber.results)
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            let waiter = environment.task { () -> (any Error)? in
                do { try await analyzer.finish(after: CMTime(value: 5, timescale: 1)); return nil } catch { return error }
            }
            await environment.drain()
            #expect(await analyzer.waiters.count == 1)
            await analyzer.cancelAndFinishNow()
            let (elements, error) = try #require(await value(of: results))
            #expect(elements.isEmpty && error == nil)
            #expect(await value(of: waiter) != nil)
            // Finished: further calls do nothing.
            try await analyzer.finish(after: .zero)
            try await analyzer.finalize(through: nil)
            #expect(await analyzer.volatileRange == nil)
        }
    }

    @Test("finish(after:) waits for the input, then discards volatile results")
    func finishAfterWaitsForInput() async throws {
        let session = ScriptedBackend(steps: [
            .init(atSeconds: 0.5, event: .volatile(Script.hypothesis("maybe", start: 0.1))),
        ])
        let environment = SpeechTestEnvironment([session])
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .progressiveTranscription)
            let results = collect(transcriber.results)
            let feed = environment.inputFeed()
            let analyzer = SpeechAnalyzer(inputSequence: feed.stream, modules: [transcriber])
            let finishing = environment.task { () -> (any Error)? in
                do { try await analyzer.finish(after: CMTime(value: 2, timescale: 1)); return nil } catch { return error }
            }
            feed.yield(seconds: 1.0)
            await environment.drain()
            // Half the audio: still waiting, the volatile result published, nothing finished.
            #expect(await analyzer.waiters.count == 1)
            #expect(session.finishCalls == 0 && session.cancelCalls == 0)
            #expect(!transcriber.output.isFinished)
            feed.yield(seconds: 1.0)
            await environment.drain()
            #expect(await value(of: finishing).map { $0 == nil } == true)
            let (elements, error) = try #require(await value(of: results))
            #expect(error == nil)
            #expect(elements.map(\.isFinal) == [false])
            #expect(session.cancelCalls == 1)
        }
    }

    @Test("finalize, then cancel, then finish: every order ends cleanly")
    func finishingOrders() async throws {
        for order in 0..<3 {
            let environment = SpeechTestEnvironment([progressiveSession()])
            try await withModernEnvironment(environment) {
                let transcriber = SpeechTranscriber(locale: englishUS, preset: .progressiveTranscription)
                let results = collect(transcriber.results)
                let feed = environment.inputFeed()
                let analyzer = SpeechAnalyzer(inputSequence: feed.stream, modules: [transcriber])
                let end = CMTime(value: 5, timescale: 2)
                if order == 1 {
                    // Before any audio: the first second is cancelled.
                    await analyzer.cancelAnalysis(before: CMTime(value: 1, timescale: 1))
                }
                feed.yield(seconds: 2.5)
                switch order {
                case 0:
                    try await analyzer.finalize(through: end)
                    await analyzer.cancelAndFinishNow()
                    try await analyzer.finish(after: end)
                case 1:
                    try await analyzer.finalizeAndFinish(through: end)
                default:
                    try await analyzer.finish(after: end)
                    await #expect(throws: CancellationError.self) {
                        try await analyzer.finalize(through: CMTime(value: 10, timescale: 1))
                    }
                }
                let (elements, error) = try #require(await value(of: results))
                #expect(error == nil)
                let finals = elements.filter(\.isFinal).map { String($0.text.characters) }
                switch order {
                case 0: #expect(finals == ["hello world", " how are you"])
                case 1: #expect(finals == ["how are you"])   // "hello world" (0.2–1.0 s) was cancelled
                default: #expect(finals == ["hello world"])    // " how …" was still volatile
                }
            }
        }
    }

    @Test("an engine error fails the analysis: every waiter and result sequence throws it")
    func errorsReachEveryWaiter() async throws {
        let session = ScriptedBackend(steps: [
            .init(atSeconds: 1.0, event: .failed(EngineError(.modelNotFound, "Model gone."))),
        ])
        let environment = SpeechTestEnvironment([session])
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .progressiveTranscription)
            let detector = SpeechDetector(detectionOptions: .init(sensitivityLevel: .medium), reportResults: true)
            let results = collect(transcriber.results)
            let detections = collect(detector.results)
            let feed = environment.inputFeed()
            let analyzer = SpeechAnalyzer(inputSequence: feed.stream, modules: [transcriber, detector])
            let finalizing = environment.task { () -> (any Error)? in
                do { try await analyzer.finalize(through: CMTime(value: 3, timescale: 1)); return nil } catch { return error }
            }
            let endOfInput = environment.task { () -> (any Error)? in
                do { try await analyzer.finalizeAndFinishThroughEndOfInput(); return nil } catch { return error }
            }
            await environment.drain()
            #expect(await analyzer.waiters.count == 2)
            feed.yield(seconds: 1.5)
            await environment.drain()
            for waiter in [finalizing, endOfInput] {
                let error = try #require(await value(of: waiter))
                #expect((error as? SFSpeechError)?.code == .noModel)
            }
            #expect(((try #require(await value(of: results))).error as? SFSpeechError)?.code == .noModel)
            #expect(((try #require(await value(of: detections))).error as? SFSpeechError)?.code == .noModel)
            // Methods called afterwards throw the same error.
            await #expect(throws: SFSpeechError(.noModel)) { try await analyzer.finalize(through: nil) }
            await #expect(throws: SFSpeechError(.noModel)) { try await analyzer.setModules([]) }
        }
    }

    @Test("buffers in another format fail with unexpectedAudioFormat: the analyzer never converts")
    func unexpectedFormat() async throws {
        try await withModernEnvironment {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let results = collect(transcriber.results)
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2))
            let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 4_410))
            buffer.frameLength = 4_410
            let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
            continuation.yield(AnalyzerInput(buffer: buffer))
            continuation.finish()
            await #expect(throws: SFSpeechError(.unexpectedAudioFormat)) { try await analyzer.analyzeSequence(stream) }
            #expect(((try #require(await value(of: results))).error as? SFSpeechError)?.code == .unexpectedAudioFormat)
        }
    }

    @Test("time-codes: gaps are allowed, overlaps fail with audioDisordered")
    func timeCodes() async throws {
        let session = ScriptedBackend(steps: [], onFinish: [.final(Script.hypothesis("late", start: 0.1)), .finished])
        let environment = SpeechTestEnvironment([session])
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let results = collect(transcriber.results)
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
            continuation.yield(AnalyzerInput(buffer: Script.buffer(seconds: 0.5),
                                             bufferStartTime: CMTime(value: 10, timescale: 1)))
            continuation.yield(AnalyzerInput(buffer: Script.buffer(seconds: 0.5),
                                             bufferStartTime: CMTime(value: 10_750, timescale: 1_000)))
            continuation.finish()
            let last = try #require(try await analyzer.analyzeSequence(stream))
            #expect(abs(seconds(last) - 11.25) < 1e-9)
            #expect(abs(session.appendedSeconds - 1.25) < 1e-3)   // the 0.25 s gap was fed as silence
            let overlap = AsyncStream<AnalyzerInput> { continuation in
                continuation.yield(AnalyzerInput(buffer: Script.buffer(seconds: 0.5),
                                                 bufferStartTime: CMTime(value: 11, timescale: 1)))
                continuation.finish()
            }
            await #expect(throws: SFSpeechError(.audioDisordered)) { try await analyzer.analyzeSequence(overlap) }
            let (elements, error) = try #require(await value(of: results))
            #expect((error as? SFSpeechError)?.code == .audioDisordered)
            #expect(elements.isEmpty)
        }
    }
}
