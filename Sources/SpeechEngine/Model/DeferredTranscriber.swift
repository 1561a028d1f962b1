import Foundation

/// A transcriber loaded when first needed, and kept from then on.
///
/// A live stream's final results come from a model of their own
/// (``ComputeType/live``) that a recognizer given only a file never needs:
/// loading it up front would cost such a request a second model's load and
/// memory. `prefetch()` starts the load on a thread of its own as soon as
/// live audio arrives, so the first pass that needs it (at the first pause,
/// half a second or more into speech) seldom waits.
public final class DeferredTranscriber: @unchecked Sendable {
    private let load: @Sendable () throws -> Transcriber
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var outcome: Result<Transcriber, any Error>?
    private var isLoading = false

    /// A transcriber `load` makes on first need (a `ModelCache` lookup, so
    /// that recognizers share it).
    public init(_ load: @escaping @Sendable () throws -> Transcriber) {
        self.load = load
    }

    /// One loaded already.
    public init(_ loaded: Transcriber) {
        load = { loaded }
        outcome = .success(loaded)
    }

    /// Starts loading on a thread of its own, unless loading or loaded.
    public func prefetch() {
        guard claimLoad() else { return }
        Thread.detachNewThread { self.finishLoad() }
    }

    /// The transcriber: loaded here unless `prefetch()` loads it, which this waits for.
    /// - Throws: the load's error, every time once it failed.
    public func transcriber() throws -> Transcriber {
        if claimLoad() { finishLoad() }
        condition.lock()
        defer { condition.unlock() }
        while isLoading { condition.wait() }
        guard let outcome else {
            throw EngineError(.internalInconsistency, "A deferred model load ended without a result.")
        }
        return try outcome.get()
    }

    /// Whether the caller is to load: nothing loaded, no load under way.
    private func claimLoad() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard outcome == nil, !isLoading else { return false }
        isLoading = true
        return true
    }

    private func finishLoad() {
        let result = Result { try load() }
        condition.lock()
        outcome = result
        isLoading = false
        condition.broadcast()
        condition.unlock()
    }
}
