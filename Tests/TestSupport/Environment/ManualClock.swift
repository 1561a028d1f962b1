import Foundation
import Speech

/// Time that moves only when the test says so.
///
/// The faces' timers (the recognizer's availability poll, delayed work) are
/// scheduled on this clock by the test scheduler; `advance(by:)` fires the
/// ones that fall due, in deadline order, each at its own time, on the
/// caller's thread. No timer ever fires by itself.
package final class ManualClock: Sendable {
    private struct Timer {
        var deadline: Double
        var interval: Double?
        var work: @Sendable () -> Void
    }

    private struct State {
        var now = 0.0
        var nextID = 0
        var timers: [Int: Timer] = [:]
    }

    private let state = LockedState(State())

    /// A clock at time 0 with no timers.
    package init() {}

    /// Seconds since the clock was made.
    package var now: Double {
        state.withLock { $0.now }
    }

    /// How many timers are scheduled.
    package var scheduledCount: Int {
        state.withLock { $0.timers.count }
    }

    /// Schedules `work` `delay` seconds from now, repeating every `interval`
    /// seconds when given; returns the timer's id for `cancel(_:)`.
    @discardableResult
    package func schedule(after delay: Double, repeating interval: Double? = nil,
                         _ work: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            defer { state.nextID += 1 }
            state.timers[state.nextID] = Timer(deadline: state.now + max(0, delay),
                                               interval: interval.map { max($0, 1e-9) }, work: work)
            return state.nextID
        }
    }

    /// Cancels a timer; it does not fire again.
    package func cancel(_ id: Int) {
        _ = state.withLock { $0.timers.removeValue(forKey: id) }
    }

    /// Moves time forward by `seconds`, firing every timer that falls due on
    /// the way (a repeating one as often as its interval fits).
    package func advance(by seconds: Double) {
        let target = state.withLock { $0.now } + max(0, seconds)
        while let work = nextDue(before: target) {
            work()
        }
        state.withLock { $0.now = max($0.now, target) }
    }

    /// The earliest timer due by `target`: time moves to it, and it is
    /// rescheduled or removed before its work runs (so the work may cancel
    /// or schedule timers).
    private func nextDue(before target: Double) -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard let (id, timer) = state.timers.filter({ $0.value.deadline <= target + 1e-12 })
                .min(by: { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }) else { return nil }
            state.now = max(state.now, timer.deadline)
            if let interval = timer.interval {
                state.timers[id]?.deadline = timer.deadline + interval
            } else {
                state.timers.removeValue(forKey: id)
            }
            return timer.work
        }
    }
}
