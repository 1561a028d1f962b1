import Foundation

/// State behind a lock: `withLock` runs its body with exclusive access.
///
/// The faces and their test environment use this instead of the standard
/// library's `Synchronization.Mutex` for one reason: on Linux `Mutex` locks
/// with futex calls inside the uninstrumented `libswiftSynchronization.so`,
/// so ThreadSanitizer sees no ordering between two `withLock` bodies and
/// reports every state a `Mutex` guards as a data race (Scripts/tsan.sh;
/// measured with Swift 6.3.1: a 4-thread `Mutex` append loop gives 3 reports,
/// the same loop over this type none). An `NSLock` is a `pthread_mutex_t`,
/// which ThreadSanitizer intercepts, so races it reports here are real ones.
/// The cost is the same order (an uncontended pthread lock, ~20 ns).
package final class LockedState<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched inside `lock`.
    private let lock = NSLock()
    private var state: State

    /// Guards `initialState`.
    package init(_ initialState: State) {
        state = initialState
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    /// `body` must not call `withLock` on the same instance (not reentrant).
    package func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
