import AVFoundation
import Foundation
import SpeechEngine
import TestSupport
import Testing
@testable import Speech

/// The modern face under concurrency: many analyzers at once, the analysis
/// limit taken by racers, cancel racing finalize, and a format change in the
/// middle of the input. What must hold whatever the interleaving is stated
/// per test; under ThreadSanitizer (Scripts/tsan.sh) they also check the
/// analyzer's locking.
@Suite("SpeechAnalyzer concurrency (scripted sessions)")
struct SpeechAnalyzerConcurrencyTests {
    /// An environment whose N-th backend says "analyzer N" when finished.
    static func numberedEnvironment() -> SpeechTestEnvironment {
        let next = LockedState(0)
        return SpeechTestEnvironment(makeMore: {
            let number = next.withLock { value in defer { value += 1 }; return value }
            return ScriptedBackend(steps: [.init(atSeconds: 0.3, event: .volatile(Script.hypothesis("analyzer")))],
                                   onFinish: [.final(Script.hypothesis("analyzer \(number)")), .finished])
        })
    }

    /// A finished input sequence of `seconds` of tone, as an app's tap would have yielded it.
    static func input(seconds: Double) -> AsyncStream<AnalyzerInput> {
        let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
        for _ in 0..<Int(seconds / 0.25) { continuation.yield(AnalyzerInput(buffer: Script.buffer(seconds: 0.25))) }
        continuation.finish()
        return stream
    }

    @Test("many analyzers at once each get their own final text, once")
    func manyAnalyzersAtOnce() async throws {
        let count = 12
        let environment = Self.numberedEnvironment()
        try await withModernEnvironment(environment) {
            let finals = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<count {
                    group.addTask {
                        let transcriber = SpeechTranscriber(locale: englishUS, preset: .progressiveTranscription)
                        let results = collect(transcriber.results)
                        let analyzer = SpeechAnalyzer(modules: [transcriber])
                        try await analyzer.start(inputSequence: Self.input(seconds: 1))
                        try await analyzer.finalizeAndFinishThroughEndOfInput()
                        let (elements, error) = try #require(await value(of: results))
                        #expect(error == nil)
                        return elements.filter(\.isFinal).map { String($0.text.characters) }
                    }
                }
                var all: [[String]] = []
                for try await finals in group { all.append(finals) }
                return all
            }
            #expect(finals.allSatisfy { $0.count == 1 }, "\(finals)")
            #expect(Set(finals.joined()) == Set((0..<count).map { "analyzer \($0)" }))
            #expect(environment.handedOut.count == count)
            for session in environment.handedOut {
                #expect(abs(session.appendedSeconds - 1) < 1e-3, "\(session.verbs)")
            }
        }
    }

    @Test("racing for the analysis limit: exactly the limit's worth start, the rest get insufficientResources")
    func analysisLimitUnderRace() async throws {
        let limit = 3
        try await ModernTestHooks.$analysisSlots.withValue(ModernAnalysisSlots(limit: limit)) {
            try await withModernEnvironment {
                let analyzers = (0..<10).map { _ in
                    SpeechAnalyzer(modules: [SpeechTranscriber(locale: englishUS, preset: .transcription)])
                }
                let outcomes = await withTaskGroup(of: (Int, SFSpeechError?).self) { group in
                    for (index, analyzer) in analyzers.enumerated() {
                        group.addTask {
                            do {
                                try await analyzer.prepareToAnalyze(in: nil)
                                return (index, nil)
                            } catch {
                                return (index, error as? SFSpeechError)
                            }
                        }
                    }
                    var outcomes: [(Int, SFSpeechError?)] = []
                    for await outcome in group { outcomes.append(outcome) }
                    return outcomes
                }
                #expect(outcomes.filter { $0.1 == nil }.count == limit)
                let refused = outcomes.compactMap(\.1)
                #expect(refused.count == analyzers.count - limit)
                #expect(refused.allSatisfy { $0.code == .insufficientResources && $0.localizedDescription.contains("at most \(limit)") })
                for analyzer in analyzers { await analyzer.cancelAndFinishNow() }
                // Every slot came back: a new analysis starts.
                let again = SpeechAnalyzer(modules: [SpeechTranscriber(locale: englishUS, preset: .transcription)])
                try await again.prepareToAnalyze(in: nil)
                await again.cancelAndFinishNow()
            }
        }
    }

    @Test("cancelAndFinishNow racing finalizeAndFinish: both return, results end, no final twice")
    func cancelRacingFinalize() async throws {
        for _ in 0..<20 {
            let environment = Self.numberedEnvironment()
            try await withModernEnvironment(environment) {
                let transcriber = SpeechTranscriber(locale: englishUS, preset: .progressiveTranscription)
                let results = collect(transcriber.results)
                let analyzer = SpeechAnalyzer(modules: [transcriber])
                try await analyzer.start(inputSequence: Self.input(seconds: 1))
                let both = Task {
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask { try? await analyzer.finalizeAndFinishThroughEndOfInput() }
                        group.addTask { await analyzer.cancelAndFinishNow() }
                    }
                    return true
                }
                #expect(await value(of: both) == true, "finalize and cancel did not both return")
                let (elements, error) = try #require(await value(of: results), "the results never ended")
                #expect(error == nil || error is CancellationError, "\(String(describing: error))")
                #expect(elements.filter(\.isFinal).count <= 1)
                // Whoever won, a session that started was stopped, and only once by each verb
                // (cancel may win before any audio was read: then no session started).
                for session in environment.handedOut {
                    #expect(session.finishCalls <= 1 && session.cancelCalls <= 1, "\(session.verbs)")
                    #expect(session.finishCalls + session.cancelCalls >= 1, "\(session.verbs)")
                }
            }
        }
    }

    @Test("a format change mid-stream fails with unexpectedAudioFormat and keeps what was finalized")
    func formatChangeMidStream() async throws {
        let session = ScriptedBackend(steps: [.init(atSeconds: 0.4, event: .final(Script.hypothesis("hello", start: 0.1)))],
                                      onFinish: [.finished])
        let environment = SpeechTestEnvironment([session])
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .progressiveTranscription)
            let results = collect(transcriber.results)
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2))
            let other = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 4_410))
            other.frameLength = 4_410
            let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
            continuation.yield(AnalyzerInput(buffer: Script.buffer(seconds: 0.5)))
            continuation.yield(AnalyzerInput(buffer: other))
            continuation.yield(AnalyzerInput(buffer: Script.buffer(seconds: 0.5)))
            continuation.finish()
            await #expect(throws: SFSpeechError(.unexpectedAudioFormat)) { try await analyzer.analyzeSequence(stream) }
            let (elements, error) = try #require(await value(of: results))
            let failure = try #require(error as? SFSpeechError)
            #expect(failure.code == .unexpectedAudioFormat)
            let reason = (failure as NSError).localizedFailureReason ?? failure.localizedDescription
            #expect(reason.contains("44100") && reason.contains("AVAudioConverter"), "names the format and the fix: \(reason)")
            // The final delivered before the bad buffer stays delivered; nothing after it reached the session.
            #expect(elements.filter(\.isFinal).map { String($0.text.characters) } == ["hello"])
            #expect(abs(session.appendedSeconds - 0.5) < 1e-3, "\(session.appendedSeconds)")
        }
    }
}
