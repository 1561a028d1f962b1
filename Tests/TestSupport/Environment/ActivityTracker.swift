import Foundation
import Synchronization

/// Counts the work a face has in flight, so that a test can wait until the
/// face is quiescent instead of sleeping.
///
/// Every hop the test scheduler runs (a background job, an operation, a
/// task) is `begin()`…`end()`. A task that waits for input the test controls
/// (a scripted backend's next update, an input feed's next buffer) is
/// `park()`ed while it waits and `unpark()`ed when that input arrives. The
/// face is quiescent when every running job is parked: nothing can happen
/// until the test acts again, so what was delivered so far is all there is.
package final class ActivityTracker: Sendable {
    private struct State {
        var running = 0
        var parked = 0
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]

        var isQuiet: Bool { running <= parked }
    }

    private let state = Mutex(State())

    /// A tracker with nothing in flight.
    package init() {}

    /// A job started.
    package func begin() {
        state.withLock { $0.running += 1 }
    }

    /// A job ended.
    package func end() {
        settle { $0.running -= 1 }
    }

    /// A running job waits for input the test controls.
    package func park() {
        settle { $0.parked += 1 }
    }

    /// A parked job got its input and runs again. Call before handing the
    /// input over, so that the job is never counted idle while it works.
    package func unpark() {
        state.withLock { $0.parked -= 1 }
    }

    /// Whether every running job is parked.
    package var isQuiet: Bool {
        state.withLock { $0.isQuiet }
    }

    /// How many jobs run and how many of them are parked (for failure messages).
    package var counts: (running: Int, parked: Int) {
        state.withLock { ($0.running, $0.parked) }
    }

    /// Waits until every running job is parked; `false` if that did not
    /// happen within `timeout` seconds (a hop that never ends: a bug).
    package func waitUntilQuiet(timeout: Double) async -> Bool {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let quiet = state.withLock { state in
                if state.isQuiet { return true }
                state.waiters[id] = continuation
                return false
            }
            if quiet {
                continuation.resume(returning: true)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
                state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: false)
            }
        }
    }

    private func settle(_ change: (inout State) -> Void) {
        let ready: [CheckedContinuation<Bool, Never>] = state.withLock { state in
            change(&state)
            guard state.isQuiet else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in ready { waiter.resume(returning: true) }
    }
}
