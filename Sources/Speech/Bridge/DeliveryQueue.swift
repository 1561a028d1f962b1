import Foundation

/// Runs callbacks on an `OperationQueue` one at a time, in the order they
/// were submitted, whatever the queue's concurrency.
///
/// Apple delivers a task's handler and delegate calls on the recognizer's
/// `queue` (the main queue by default) in order. A user may set a concurrent
/// `OperationQueue()`; submitting each callback as its own operation could
/// then reorder them. Here one operation at a time drains a FIFO, so calls
/// stay ordered and never overlap, and calls submitted from inside a callback
/// run after it.
final class DeliveryQueue: Sendable {
    private struct State {
        var pending: [@Sendable () -> Void] = []
        var isDraining = false
    }

    /// The queue the callbacks run on.
    let queue: OperationQueue
    private let scheduler: BridgeScheduler
    private let state = LockedState(State())

    /// Delivers on `queue`, adding operations through `scheduler`.
    init(queue: OperationQueue, scheduler: BridgeScheduler = .system) {
        self.queue = queue
        self.scheduler = scheduler
    }

    /// Submits `callback` to run after every callback submitted before it.
    func submit(_ callback: @escaping @Sendable () -> Void) {
        let startDraining = state.withLock { state in
            state.pending.append(callback)
            guard !state.isDraining else { return false }
            state.isDraining = true
            return true
        }
        if startDraining {
            scheduler.operation(queue) { [self] in drain() }
        }
    }

    private func drain() {
        while let next = state.withLock({ state -> (@Sendable () -> Void)? in
            guard !state.pending.isEmpty else {
                state.isDraining = false
                return nil
            }
            return state.pending.removeFirst()
        }) {
            next()
        }
    }
}
