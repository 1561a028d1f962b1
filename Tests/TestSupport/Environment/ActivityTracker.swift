import Speech

/// Counts the work a face has in flight, so that a test can wait until the
/// face is quiescent instead of sleeping.
///
/// Every hop the test scheduler runs (a background job, an operation, a
/// task) is `begin()`…`end()`. A task that waits for input the test controls
/// (a scripted backend's next update, an input feed's next buffer, a
/// condition inside an analyzer) is `park()`ed while it waits and
/// `unpark()`ed when that input arrives. The face is quiescent when every
/// running job is parked: nothing can happen until the test acts again, so
/// what was delivered so far is all there is.
package final class ActivityTracker: Sendable {
    private struct State {
        var running = 0
        var parked = 0
        /// Bumped by every change: how a hang (no change at all) is told
        /// from a slow, busy machine.
        var changes = 0
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]

        var isQuiet: Bool { running <= parked }
    }

    private let state = LockedState(State())

    /// A tracker with nothing in flight.
    package init() {}

    /// A job started.
    package func begin() {
        state.withLock { state in
            state.running += 1
            state.changes += 1
        }
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
        state.withLock { state in
            state.parked -= 1
            state.changes += 1
        }
    }

    /// Whether every running job is parked.
    package var isQuiet: Bool {
        state.withLock { $0.isQuiet }
    }

    /// How many jobs run and how many of them are parked (for failure messages).
    package var counts: (running: Int, parked: Int) {
        state.withLock { ($0.running, $0.parked) }
    }

    /// Waits until every running job is parked; `false` when nothing
    /// changed for a whole `timeout` seconds before that (a hop that never
    /// ends: a bug).
    ///
    /// The timeout is kept by a task sleeping on the cooperative pool, where
    /// the faces' tasks run too: when other tests hold every thread for a
    /// while it is late as well, and it gives up only after a period in
    /// which the tracker saw no change at all.
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
            Task { await watch(waiter: id, every: timeout) }
        }
    }

    /// Gives up on waiter `id` after a period of `seconds` without change.
    private func watch(waiter id: Int, every seconds: Double) async {
        var seen = state.withLock { $0.changes }
        while true {
            try? await Task.sleep(nanoseconds: UInt64(max(seconds, 0.001) * 1_000_000_000))
            let (done, stalled): (Bool, CheckedContinuation<Bool, Never>?) = state.withLock { state in
                guard state.waiters[id] != nil else { return (true, nil) }
                guard state.changes == seen else {
                    seen = state.changes
                    return (false, nil)
                }
                return (true, state.waiters.removeValue(forKey: id))
            }
            stalled?.resume(returning: false)
            if done { return }
        }
    }

    private func settle(_ change: (inout State) -> Void) {
        let ready: [CheckedContinuation<Bool, Never>] = state.withLock { state in
            change(&state)
            state.changes += 1
            guard state.isQuiet else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in ready { waiter.resume(returning: true) }
    }
}
