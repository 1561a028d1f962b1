import Foundation
import SpeechEngine
import Synchronization
import TestSupport
import Testing
@testable import Speech

/// Hands out scripted sessions in order, one per session the analyzer asks
/// for, and records the options of each request.
final class ScriptedSessionQueue: Sendable {
    private struct State {
        var pending: [ScriptedSession]
        var handedOut: [ScriptedSession] = []
        var requests: [(locale: Locale, options: StreamingOptions)] = []
    }

    private let state: Mutex<State>
    /// Makes a session when the queue runs out (`nil`: fail like a missing model).
    private let makeMore: (@Sendable () -> ScriptedSession)?

    /// A queue handing out `sessions`, then sessions from `makeMore`.
    init(_ sessions: [ScriptedSession], makeMore: (@Sendable () -> ScriptedSession)? = { ScriptedSession() }) {
        state = Mutex(State(pending: sessions))
        self.makeMore = makeMore
    }

    /// The factory the analyzer gets.
    var factory: RecognitionSessionFactory {
        RecognitionSessionFactory { [self] locale, configuration in
            let options = try ConfigurationMapping.streamingOptions(for: configuration, locale: locale)
            let session: ScriptedSession? = state.withLock { state in
                state.requests.append((locale, options))
                let next = state.pending.isEmpty ? makeMore?() : state.pending.removeFirst()
                if let next { state.handedOut.append(next) }
                return next
            }
            guard let session else {
                throw EngineError(.modelNotFound, "No scripted session left.")
            }
            return session
        }
    }

    /// The sessions handed out so far.
    var handedOut: [ScriptedSession] { state.withLock { $0.handedOut } }
    /// The options of every session request.
    var requestedOptions: [StreamingOptions] { state.withLock { $0.requests.map(\.options) } }
}

/// Runs `body` with analyzers taking sessions from `queue` and assets (models,
/// reservations) in a fresh temporary folder.
func withModernEnvironment<T>(
    _ queue: ScriptedSessionQueue = ScriptedSessionQueue([]),
    assets: ModernAssets? = nil,
    _ body: () async throws -> T
) async throws -> T {
    let folder = try Fixtures.temporaryDirectory("modern")
    defer { try? FileManager.default.removeItem(at: folder) }
    let testAssets = assets ?? ModernAssets(store: AssetStore(root: folder.appendingPathComponent("models")))
    return try await ModernTestHooks.$sessionFactory.withValue(queue.factory) {
        try await ModernAssets.$overridden.withValue(testAssets) {
            try await body()
        }
    }
}

/// Feeds buffers into an analyzer through an `AsyncStream`.
struct InputFeed: Sendable {
    let stream: AsyncStream<AnalyzerInput>
    let continuation: AsyncStream<AnalyzerInput>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
    }

    /// Yields `seconds` of audio in buffers of `chunk` seconds.
    func yield(seconds: Double, chunk: Double = 0.5) {
        var remaining = seconds
        while remaining > 1e-9 {
            let length = min(chunk, remaining)
            continuation.yield(AnalyzerInput(buffer: Script.buffer(seconds: length)))
            remaining -= length
        }
    }

    /// Ends the input sequence.
    func end() { continuation.finish() }
}

/// Every element of a result sequence until it ends, or the error it threw.
func collect<S: AsyncSequence & Sendable>(_ sequence: S) -> Task<(elements: [S.Element], error: (any Error)?), Never>
where S.Element: Sendable {
    Task {
        var elements: [S.Element] = []
        do {
            for try await element in sequence { elements.append(element) }
            return (elements, nil)
        } catch {
            return (elements, error)
        }
    }
}

/// The value of `task`, or `nil` if it takes longer than `seconds` (the task
/// is left running; a hung analyzer then fails the test instead of hanging it).
func value<T: Sendable>(of task: Task<T, Never>, within seconds: Double = 5) async -> T? {
    let resumed = ResumeOnce()
    return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        @Sendable func resume(_ value: T?) {
            if resumed.claim() { continuation.resume(returning: value) }
        }
        Task { resume(await task.value) }
        Task {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            resume(nil)
        }
    }
}

/// Lets exactly one of several racers resume a continuation.
final class ResumeOnce: Sendable {
    private let done = Mutex(false)

    /// `true` for the first caller only.
    func claim() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}

/// A time in seconds, for readable expectations.
func seconds(_ time: CMTime) -> Double { time.seconds }

/// The English (US) locale the tests use.
let englishUS = Locale(identifier: "en-US")
