import Foundation
import Speech

/// The update stream of an adapter backend: updates in order, then one
/// terminal update (`finished` or `failed`), after which nothing more is
/// delivered — whichever of the pipeline's tasks ends it first.
final class UpdateOutput: Sendable {
    private let state: LockedState<AsyncStream<SessionUpdate>.Continuation?>

    init(_ continuation: AsyncStream<SessionUpdate>.Continuation) {
        state = LockedState(continuation)
    }

    /// Whether the terminal update was delivered.
    var hasEnded: Bool { state.withLock { $0 == nil } }

    /// Delivers a non-terminal update, unless the stream has ended.
    func yield(_ update: SessionUpdate) {
        state.withLock { _ = $0?.yield(update) }
    }

    /// Delivers the terminal update and ends the stream, once.
    func end(_ terminal: SessionUpdate) {
        let continuation = state.withLock { state -> AsyncStream<SessionUpdate>.Continuation? in
            defer { state = nil }
            return state
        }
        continuation?.yield(terminal)
        continuation?.finish()
    }
}
