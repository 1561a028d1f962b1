import Synchronization

/// A flag that stops one transcription between decoding steps, apart from
/// task cancellation: the streaming recognizer raises one on its volatile
/// passes when the input closes (so the final pass starts at once instead of
/// after a partial result nobody will see) and another on cancellation.
final class Interruption: Sendable {
    private let raised = Atomic(false)
    /// Raising any of these raises this one too.
    private let linked: [Interruption]

    init(linkedTo linked: [Interruption] = []) {
        self.linked = linked
    }

    func raise() { raised.store(true, ordering: .releasing) }

    var isRaised: Bool { raised.load(ordering: .acquiring) || linked.contains { $0.isRaised } }

    /// An interruption raised when either one is (nil when both are).
    static func either(_ first: Interruption?, _ second: Interruption?) -> Interruption? {
        switch (first, second) {
        case (nil, nil): nil
        case (let one?, nil), (nil, let one?): one
        case (let one?, let other?): Interruption(linkedTo: [one, other])
        }
    }
}

extension Optional where Wrapped == Interruption {
    /// Whether decoding should stop: the task was cancelled or the flag raised.
    var stopsDecoding: Bool { Task.isCancelled || (self?.isRaised ?? false) }
}
