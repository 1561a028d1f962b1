import Foundation
import Speech

/// Every element of a result sequence until it ends, or the error it threw.
package func collect<S: AsyncSequence & Sendable>(_ sequence: S)
    -> Task<(elements: [S.Element], error: (any Error)?), Never> where S.Element: Sendable {
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

/// How long a test waits for something that must happen before calling it a
/// hang. Swift Testing starts every test of the run at once on a cooperative
/// pool two threads wide here, so a wait that takes milliseconds alone can
/// take as long as the whole debug run (about a minute, more on a slow CI
/// machine or under ThreadSanitizer): the guard must outlast the run, not
/// the work it waits for. `SPEECHCOMPAT_HANG_GUARD_SECONDS` overrides it.
package let hangGuardSeconds: Double = {
    if let text = ProcessInfo.processInfo.environment["SPEECHCOMPAT_HANG_GUARD_SECONDS"],
       let seconds = Double(text), seconds > 0 {
        return seconds
    }
    return 300
}()

/// The value of `task`, or `nil` if it takes longer than `seconds`: a bound
/// on a wait for something that must happen, so that a hung face fails the
/// test instead of hanging it (the task is left running). Not a way to wait
/// for something to happen: use `SpeechTestEnvironment.drain()` for that.
package func value<T: Sendable>(of task: Task<T, Never>, within seconds: Double = hangGuardSeconds) async -> T? {
    let resumed = ResumeOnce()
    return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        @Sendable func resume(_ value: T?) {
            if resumed.claim() { continuation.resume(returning: value) }
        }
        Task { resume(await task.value) }
        Task {
            // On the cooperative pool, like the work it bounds: late when that is.
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            resume(nil)
        }
    }
}

/// Polls `condition` every 10 ms until it holds or `seconds` pass, and
/// returns whether it held: a bound on a wait for state that a callback on a
/// thread the test does not own sets (a notification, a device watcher).
@discardableResult
package func poll(until condition: () -> Bool, within seconds: Double = hangGuardSeconds) async -> Bool {
    let started = Date()
    while !condition() {
        guard Date().timeIntervalSince(started) < seconds else { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}

/// Lets exactly one of several racers resume a continuation.
package final class ResumeOnce: Sendable {
    private let done = LockedState(false)

    package init() {}

    /// `true` for the first caller only.
    package func claim() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}
