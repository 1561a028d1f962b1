import Foundation
import SpeechEngine
import Synchronization
import TestSupport
import Testing
@testable import Speech

/// The analyzer's modules, volatile range, resource limits, model retention
/// and deallocation, over scripted sessions.
@Suite("SpeechAnalyzer modules and resources (scripted sessions)")
struct SpeechAnalyzerModulesTests {
    @Test("a module used by one analyzer cannot be used by another")
    func moduleReuse() async throws {
        try await withModernEnvironment {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let first = SpeechAnalyzer(modules: [transcriber])
            let second = SpeechAnalyzer(modules: [transcriber])
            await #expect(throws: SFSpeechError(.moduleOutputFailed)) { try await second.prepareToAnalyze(in: nil) }
            let other = SpeechAnalyzer(modules: [])
            await #expect(throws: SFSpeechError(.moduleOutputFailed)) { try await other.setModules([transcriber]) }
            // The first analyzer is unaffected.
            try await first.prepareToAnalyze(in: nil)
            await first.cancelAndFinishNow()
        }
    }

    @Test("setModules: added modules see only new audio, removed modules finish their results")
    func setModules() async throws {
        let first = ScriptedBackend(steps: [], onFinish: [.final(Script.hypothesis("early", start: 0.1)), .finished])
        let second = ScriptedBackend(steps: [], onFinish: [.final(Script.hypothesis("later", start: 0.1)), .finished])
        let environment = SpeechTestEnvironment([first, second])
        try await withModernEnvironment(environment) {
            let old = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let new = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let oldResults = collect(old.results)
            let newResults = collect(new.results)
            let feed = environment.inputFeed()
            let analyzer = SpeechAnalyzer(inputSequence: feed.stream, modules: [old])
            feed.yield(seconds: 1)
            try await analyzer.finalize(through: CMTime(value: 1, timescale: 1))
            try await analyzer.setModules([new])
            #expect(await analyzer.modules.count == 1)
            feed.yield(seconds: 1)
            feed.end()
            try await analyzer.finalizeAndFinishThroughEndOfInput()
            let oldTexts = try #require(await value(of: oldResults)).elements.map { String($0.text.characters) }
            let newCollected = try #require(await value(of: newResults))
            #expect(oldTexts == ["early"])
            #expect(newCollected.elements.map { String($0.text.characters) } == ["later"])
            #expect(abs(seconds(try #require(newCollected.elements.first).range.start) - 1.1) < 1e-6)
            #expect(abs(second.appendedSeconds - 1) < 1e-3)
        }
    }

    @Test("the volatile range follows input and finalization, and the handler hears each change")
    func volatileRange() async throws {
        let session = ScriptedBackend(steps: [
            .init(atSeconds: 1.0, event: .final(Script.hypothesis("one", start: 0.2))),
        ])
        let environment = SpeechTestEnvironment([session])
        try await withModernEnvironment(environment) {
            let changes = ChangeLog()
            let feed = environment.inputFeed()
            let analyzer = SpeechAnalyzer(inputSequence: feed.stream,
                                          modules: [SpeechTranscriber(locale: englishUS, preset: .transcription)],
                                          volatileRangeChangedHandler: { range, changedStart, changedEnd in
                                              changes.append(range, changedStart, changedEnd)
                                          })
            #expect(await analyzer.volatileRange == nil)
            feed.yield(seconds: 1.5, chunk: 0.5)
            feed.end()
            try await analyzer.finalize(through: CMTime(value: 3, timescale: 2))
            let range = try #require(await analyzer.volatileRange)
            #expect(range.duration == .zero && abs(seconds(range.start) - 1.5) < 1e-6)
            let log = changes.entries
            #expect(log.first.map { seconds($0.range.start) == 0 && abs(seconds($0.range.end) - 0.5) < 1e-6 } == true)
            #expect(log.contains { $0.changedStart && abs(seconds($0.range.start) - 0.6) < 1e-6 })   // "one" final
            #expect(log.allSatisfy { $0.changedStart || $0.changedEnd })
            let ends = log.map { seconds($0.range.end) }
            #expect(ends == ends.sorted())
            await analyzer.cancelAndFinishNow()
        }
    }

    @Test("more analyses than the limit fail with insufficientResources")
    func resourceLimit() async throws {
        try await ModernTestHooks.$analysisSlots.withValue(ModernAnalysisSlots(limit: 1)) {
            try await withModernEnvironment {
                let first = SpeechAnalyzer(modules: [SpeechTranscriber(locale: englishUS, preset: .transcription)])
                let second = SpeechAnalyzer(modules: [SpeechTranscriber(locale: englishUS, preset: .transcription)])
                try await first.prepareToAnalyze(in: nil)
                await #expect(throws: SFSpeechError(.insufficientResources)) { try await second.prepareToAnalyze(in: nil) }
                await first.cancelAndFinishNow()
                try await second.prepareToAnalyze(in: nil)   // the slot is free again
                await second.cancelAndFinishNow()
            }
        }
    }

    @Test("model retention: whileInUse releases at the end, lingering and processLifetime keep models")
    func retention() async throws {
        let released = ReleaseCounter()
        let environment = SpeechTestEnvironment()
        let retention = ModelRetention(lingeringSeconds: 0.2, scheduler: environment.scheduler) {
            released.increment()
        }
        try await ModernTestHooks.$modelRetention.withValue(retention) {
            try await withModernEnvironment(environment) {
                func run(_ option: SpeechAnalyzer.Options.ModelRetention) async throws {
                    let analyzer = SpeechAnalyzer(modules: [SpeechTranscriber(locale: englishUS, preset: .transcription)],
                                                  options: .init(priority: .medium, modelRetention: option))
                    try await analyzer.prepareToAnalyze(in: nil)
                    await analyzer.cancelAndFinishNow()
                }
                try await run(.whileInUse)
                #expect(released.count == 1)
                try await run(.lingering)
                #expect(released.count == 1)
                // Released once the lingering time (0.2 s) has passed, not before.
                await environment.advance(by: 0.19)
                #expect(released.count == 1)
                await environment.advance(by: 0.01)
                #expect(released.count == 2)
                // A later lingering end restarts the time; a release in between is not repeated.
                try await run(.lingering)
                await environment.advance(by: 0.1)
                try await run(.lingering)
                await environment.advance(by: 0.15)
                #expect(released.count == 2)
                await environment.advance(by: 0.05)
                #expect(released.count == 3)
                try await run(.processLifetime)
                try await run(.whileInUse)
                await environment.advance(by: 1)
                #expect(released.count == 3)
                await SpeechModels.endRetention()
                #expect(released.count == 4)
            }
        }
    }

    @Test("an open input sequence does not keep a released analyzer alive")
    func deallocationWithOpenInput() async throws {
        let environment = SpeechTestEnvironment()
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .progressiveTranscription)
            let results = collect(transcriber.results)
            let feed = environment.inputFeed()
            var analyzer: SpeechAnalyzer? = SpeechAnalyzer(inputSequence: feed.stream, modules: [transcriber])
            feed.yield(seconds: 0.5)
            await environment.drain()
            analyzer = nil
            feed.yield(seconds: 0.5)   // wakes the input loop, which finds no analyzer
            let (_, error) = try #require(await value(of: results))
            #expect(error == nil && analyzer == nil)
            feed.end()
        }
    }

    @Test("releasing the analyzer ends its result sequences")
    func deallocationFinishes() async throws {
        let environment = SpeechTestEnvironment()
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .progressiveTranscription)
            let results = collect(transcriber.results)
            var analyzer: SpeechAnalyzer? = SpeechAnalyzer(modules: [transcriber])
            try await analyzer?.prepareToAnalyze(in: nil)
            await environment.drain()
            #expect(!transcriber.output.isFinished)
            analyzer = nil
            let (elements, error) = try #require(await value(of: results))
            #expect(elements.isEmpty && error == nil)
        }
    }
}

/// Volatile-range changes, recorded from the handler.
final class ChangeLog: Sendable {
    struct Entry: Sendable { var range: CMTimeRange; var changedStart: Bool; var changedEnd: Bool }
    private let log = Mutex<[Entry]>([])
    func append(_ range: CMTimeRange, _ changedStart: Bool, _ changedEnd: Bool) {
        log.withLock { $0.append(Entry(range: range, changedStart: changedStart, changedEnd: changedEnd)) }
    }
    var entries: [Entry] { log.withLock { $0 } }
}

/// Counts model releases.
final class ReleaseCounter: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}
