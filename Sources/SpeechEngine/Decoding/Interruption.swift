import Synchronization

/// A flag that stops one transcription between decoding steps, apart from
/// task cancellation: the streaming recognizer raises it on its volatile
/// passes when the input closes, so the final pass starts at once instead of
/// after a partial result nobody will see.
final class Interruption: Sendable {
    private let raised = Atomic(false)

    func raise() { raised.store(true, ordering: .releasing) }

    var isRaised: Bool { raised.load(ordering: .acquiring) }
}

extension Optional where Wrapped == Interruption {
    /// Whether decoding should stop: the task was cancelled or the flag raised.
    var stopsDecoding: Bool { Task.isCancelled || (self?.isRaised ?? false) }
}
