import Foundation
import Speech
import SpeechEngine
import Testing

/// One test environment for both faces: scripted backends in place of the
/// engine, and a scheduler that tracks every asynchronous hop and keeps a
/// manual clock, so that tests state exact event orders without sleeping.
///
/// A test acts (appends audio, ends it, cancels), then `await drain()`:
/// when it returns every hop the face started has run and every update the
/// backends emitted has been handled, so the calls recorded so far are all
/// the calls there will be until the test acts again. Timers fire only on
/// `advance(by:)`. Each test makes its own environment, so parallel tests
/// do not interfere.
package final class SpeechTestEnvironment: Sendable {
    private struct Backends {
        var pending: [ScriptedBackend]
        var handedOut: [ScriptedBackend] = []
        var requests: [(locale: Locale, configuration: RecognitionConfiguration)] = []
    }

    /// What is in flight in the faces.
    package let tracker = ActivityTracker()
    /// The faces' timers' time.
    package let clock = ManualClock()
    private let backends: LockedState<Backends>
    /// Makes a backend when the queue runs out (`nil`: fail like a missing model).
    private let makeMore: (@Sendable () -> ScriptedBackend)?

    /// An environment handing out `backends` in order, then ones from `makeMore`.
    package init(_ backends: [ScriptedBackend] = [],
                makeMore: (@Sendable () -> ScriptedBackend)? = { ScriptedBackend() }) {
        self.backends = LockedState(Backends(pending: backends))
        self.makeMore = makeMore
    }

    /// The backends handed out so far, in order.
    package var handedOut: [ScriptedBackend] { backends.withLock { $0.handedOut } }
    /// The locale and configuration of every backend request, in order.
    package var requests: [(locale: Locale, configuration: RecognitionConfiguration)] {
        backends.withLock { $0.requests }
    }

    /// Where the faces get their backends in this environment.
    package var factory: RecognitionSessionFactory {
        RecognitionSessionFactory { [self] locale, configuration in
            // What the engine backend rejects when it starts, the fake rejects too.
            try configuration.validate(for: locale)
            let backend: ScriptedBackend? = backends.withLock { state in
                state.requests.append((locale, configuration))
                let next = state.pending.isEmpty ? makeMore?() : state.pending.removeFirst()
                if let next { state.handedOut.append(next) }
                return next
            }
            guard let backend else {
                throw EngineError(.modelNotFound, "No scripted backend left in the test environment.")
            }
            return backend.handedOut(to: tracker, locale: locale, configuration: configuration)
        }
    }

    /// The faces' hops, tracked by `tracker`, with timers on `clock`.
    package var scheduler: BridgeScheduler {
        let tracker = tracker
        let clock = clock
        return BridgeScheduler(
            background: { work in
                tracker.begin()
                DispatchQueue.global().async {
                    work()
                    tracker.end()
                }
            },
            operation: { queue, work in
                tracker.begin()
                queue.addOperation {
                    work()
                    tracker.end()
                }
            },
            task: { priority, work in
                tracker.begin()
                return Task(priority: priority) {
                    await SpeechTestEnvironment.$isTracked.withValue(true) { await work() }
                    tracker.end()
                }
            },
            repeating: { interval, work in
                let id = clock.schedule(after: interval, repeating: interval, work)
                return BridgeTimer { clock.cancel(id) }
            },
            after: { delay, work in
                clock.schedule(after: delay, work)
            },
            waits: {
                // Only a tracked task counts as running, so only it can be idle.
                guard SpeechTestEnvironment.isTracked else { return {} }
                tracker.park()
                return { tracker.unpark() }
            })
    }

    /// Whether the current task is one the tracker counts (a face's task on
    /// this scheduler, or one started with `task(_:)`).
    @TaskLocal static var isTracked = false

    /// Starts `work` as a task the tracker counts: `drain()` waits for it to
    /// end or to wait inside an analyzer (`finish(after:)`, `finalize(through:)`)
    /// for something the test will do. Use it for calls the test must know
    /// have reached the analyzer before it acts again.
    @discardableResult
    package func task<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> Task<T, Never> {
        tracker.begin()
        let tracker = tracker
        return Task {
            let value = await SpeechTestEnvironment.$isTracked.withValue(true) { await work() }
            tracker.end()
            return value
        }
    }

    /// Waits until the faces are quiescent: every hop has run and every
    /// emitted update was handled. Records an issue if nothing moves for
    /// `timeout` seconds before that (a hop that never ends, or input the
    /// test does not control, such as a plain `AsyncStream` never finished).
    package func drain(timeout: Double = 60, sourceLocation: SourceLocation = #_sourceLocation) async {
        guard await tracker.waitUntilQuiet(timeout: timeout) else {
            let (running, parked) = tracker.counts
            let message = "The faces did not become quiescent: nothing moved for \(timeout) s with "
                + "\(running) jobs running, \(parked) of them waiting for the test."
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
            return
        }
    }

    /// Moves the manual clock forward, firing the timers that fall due, then drains.
    package func advance(by seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) async {
        clock.advance(by: seconds)
        await drain(sourceLocation: sourceLocation)
    }

    /// Runs `body` with analyzers (created in it) taking this environment's
    /// backends and scheduler.
    package func run<T>(_ body: () async throws -> T) async rethrows -> T {
        try await ModernTestHooks.$sessionFactory.withValue(factory) {
            try await ModernTestHooks.$scheduler.withValue(scheduler) {
                try await body()
            }
        }
    }

    /// An analyzer input sequence the test feeds; the analyzer's reading of
    /// it is tracked, so that `drain()` waits until it has read what was fed.
    package func inputFeed() -> InputFeed {
        InputFeed(tracker: tracker)
    }
}
