import Foundation
import Speech

/// A point where a fake (an installer, a model load) stops until the test
/// opens it, and tells the test that it got there: the test acts while the
/// fake is known to be in the middle of its work, without sleeping.
package final class Gate: Sendable {
    private struct State {
        var arrivals = 0
        var isOpen = false
        var arrivalWaiters: [CheckedContinuation<Void, Never>] = []
        var openWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedState(State())

    package init() {}

    /// Called by the fake: records the arrival, then waits until the gate is open.
    package func pass() async {
        let arrived: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.arrivals += 1
            defer { state.arrivalWaiters = [] }
            return state.arrivalWaiters
        }
        for waiter in arrived { waiter.resume() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state in
                if !state.isOpen { state.openWaiters.append(continuation) }
                return state.isOpen
            }
            if open { continuation.resume() }
        }
    }

    /// Called by the test: returns once the fake has arrived at the gate.
    package func arrival() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let arrived = state.withLock { state in
                if state.arrivals == 0 { state.arrivalWaiters.append(continuation) }
                return state.arrivals > 0
            }
            if arrived { continuation.resume() }
        }
    }

    /// Opens the gate: the fake, and every later one, passes.
    package func open() {
        let waiting: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.isOpen = true
            defer { state.openWaiters = [] }
            return state.openWaiters
        }
        for waiter in waiting { waiter.resume() }
    }
}
