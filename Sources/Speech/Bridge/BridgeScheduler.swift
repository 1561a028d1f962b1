import Foundation

/// Where the faces' asynchronous hops run and how their timers keep time.
///
/// The faces leave the caller's thread to load a model or read a file, read
/// a backend's updates in a task, deliver callbacks as operations of an
/// `OperationQueue`, and poll on timers. In the product these are the
/// system's (`.system`). Tests inject a scheduler that counts every hop and
/// keeps a manual clock (swift-nio's `EmbeddedEventLoop` idea), so that a
/// test waits until nothing is left to run and advances time exactly instead
/// of sleeping. `package` so that Tests/TestSupport can build one.
package struct BridgeScheduler: Sendable {
    /// A unit of work.
    package typealias Work = @Sendable () -> Void

    /// Runs blocking `work` (a model load, a file read) off the caller's thread.
    package let background: @Sendable (_ work: @escaping Work) -> Void
    /// Adds `work` as an operation of `queue`.
    package let operation: @Sendable (_ queue: OperationQueue, _ work: @escaping Work) -> Void
    /// Starts `work` as an unstructured task at `priority`; it inherits the
    /// caller's task-local values, as `Task.init` does.
    package let task: @Sendable (_ priority: TaskPriority?, _ work: @escaping @Sendable () async -> Void)
        -> Task<Void, Never>
    /// Calls `work` every `interval` seconds until the returned timer is cancelled.
    package let repeating: @Sendable (_ interval: TimeInterval, _ work: @escaping Work) -> BridgeTimer
    /// Calls `work` once, `delay` seconds from now.
    package let after: @Sendable (_ delay: TimeInterval, _ work: @escaping Work) -> Void
    /// The current task is about to wait for a condition another task will
    /// satisfy (an analyzer's `finalize(through:)`); returns what to call
    /// when it is resumed. The system's does nothing; a test's counts the
    /// task as idle meanwhile.
    package let waits: @Sendable () -> Work

    /// A scheduler made of the given hops.
    package init(background: @escaping @Sendable (_ work: @escaping Work) -> Void,
                 operation: @escaping @Sendable (_ queue: OperationQueue, _ work: @escaping Work) -> Void,
                 task: @escaping @Sendable (_ priority: TaskPriority?, _ work: @escaping @Sendable () async -> Void)
                    -> Task<Void, Never>,
                 repeating: @escaping @Sendable (_ interval: TimeInterval, _ work: @escaping Work) -> BridgeTimer,
                 after: @escaping @Sendable (_ delay: TimeInterval, _ work: @escaping Work) -> Void,
                 waits: @escaping @Sendable () -> Work = { {} }) {
        self.background = background
        self.operation = operation
        self.task = task
        self.repeating = repeating
        self.after = after
        self.waits = waits
    }

    /// The system's threads, queues and clock: what the product runs on.
    package static let system = BridgeScheduler(
        background: { work in DispatchQueue.global(qos: .userInitiated).async(execute: work) },
        operation: { queue, work in queue.addOperation(work) },
        task: { priority, work in Task(priority: priority, operation: work) },
        repeating: { interval, work in
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            timer.schedule(deadline: .now() + interval, repeating: interval)
            timer.setEventHandler(handler: work)
            timer.resume()
            // Dispatch sources are thread-safe; the overlay does not mark them Sendable.
            nonisolated(unsafe) let source = timer
            return BridgeTimer { source.cancel() }
        },
        after: { delay, work in
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay, execute: work)
        })
}

/// A repeating timer of a `BridgeScheduler`; `cancel()` stops it.
package final class BridgeTimer: Sendable {
    private let stop: @Sendable () -> Void

    /// A timer stopped by `stop`.
    package init(stop: @escaping @Sendable () -> Void) {
        self.stop = stop
    }

    /// Stops the timer; no call starts after this returns.
    package func cancel() {
        stop()
    }
}
