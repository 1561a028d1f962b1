import Foundation
import Synchronization
import TestSupport
import Testing
@testable import Speech

/// The test environment itself: the manual clock fires exactly what falls
/// due, the tracker waits for every hop, the fake engine plays its script.
@Suite struct SpeechTestEnvironmentTests {
    final class Log: Sendable {
        private let entries = Mutex<[String]>([])
        func append(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test func manualClockFiresTimersInDeadlineOrderAndOnlyWhenAdvanced() {
        let clock = ManualClock()
        let log = Log()
        let repeating = clock.schedule(after: 1, repeating: 1) { log.append("tick \(clock.now)") }
        clock.schedule(after: 1.5) { log.append("once \(clock.now)") }
        #expect(log.all.isEmpty)
        clock.advance(by: 0.99)
        #expect(log.all.isEmpty)
        clock.advance(by: 2.01)
        #expect(log.all == ["tick 1.0", "once 1.5", "tick 2.0", "tick 3.0"])
        clock.cancel(repeating)
        clock.advance(by: 10)
        #expect(log.all.count == 4)
        #expect(clock.now == 13)
        #expect(clock.scheduledCount == 0)
    }

    @Test func drainWaitsForEveryKindOfHop() async {
        let environment = SpeechTestEnvironment()
        let scheduler = environment.scheduler
        let log = Log()
        let queue = OperationQueue()
        let gate = DispatchSemaphore(value: 0)
        scheduler.background {
            gate.wait()   // a hop still running: the environment is not quiet
            scheduler.operation(queue) {
                _ = scheduler.task(nil) { log.append("task") }
                log.append("operation")
            }
            log.append("background")
        }
        #expect(!environment.tracker.isQuiet)
        gate.signal()
        await environment.drain()
        #expect(log.all == ["background", "operation", "task"])
        #expect(environment.tracker.isQuiet)
    }

    @Test func aReaderWaitingForTheBackendIsIdleAndWakesOnEachUpdate() async throws {
        let handed = ScriptedBackend(steps: [
            .init(atSeconds: 1, event: .speechStarted(atSeconds: 0.5)),
        ], onFinish: [.final(Script.hypothesis("done")), .finished], holdsFinish: true)
        let environment = SpeechTestEnvironment([handed])
        let backend = try environment.factory.makeBackend(Locale(identifier: "en-US"), RecognitionConfiguration())
        #expect(backend === handed)
        let log = Log()
        _ = environment.scheduler.task(nil) {
            for await update in handed.updates {
                switch update {
                case .speechStarted: log.append("started")
                case .final(let span): log.append("final \(span.text)")
                case .finished: log.append("finished")
                default: log.append("other")
                }
            }
            log.append("ended")
        }
        await environment.drain()
        #expect(log.all.isEmpty)
        handed.append([Float](repeating: 0, count: 16_000))
        await environment.drain()
        #expect(log.all == ["started"])
        handed.finish()
        await environment.drain()
        #expect(log.all == ["started"])
        handed.releaseFinish()
        await environment.drain()
        #expect(log.all == ["started", "final done", "finished", "ended"])
        #expect(handed.verbs == [.append(seconds: 1), .finish])
    }

    @Test func aWaitInsideTheAnalyzerCountsAsIdle() async throws {
        let environment = SpeechTestEnvironment()
        try await withModernEnvironment(environment) {
            let transcriber = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let feed = environment.inputFeed()
            let analyzer = SpeechAnalyzer(inputSequence: feed.stream, modules: [transcriber])
            let waiter = environment.task { () -> Bool in
                (try? await analyzer.finish(after: CMTime(value: 1, timescale: 1))) != nil
            }
            await environment.drain()
            #expect(await analyzer.waiters.count == 1)
            feed.yield(seconds: 1)
            await environment.drain()
            #expect(await analyzer.waiters.isEmpty)
            #expect(await value(of: waiter) == true)
        }
    }

    @Test func aHopThatNeverEndsIsReportedInsteadOfHanging() async {
        let environment = SpeechTestEnvironment()
        environment.tracker.begin()
        await withKnownIssue {
            await environment.drain(timeout: 0.05)
        }
        environment.tracker.end()
        await environment.drain()
    }
}
