import Foundation

/// Overrides for tests, scoped to a task (and the tasks it creates), so that
/// tests running in parallel do not see each other's overrides.
package enum ModernTestHooks {
    /// Where analyzers created in this task get their sessions (a scripted
    /// fake in tests); `nil` means the engine.
    @TaskLocal package static var sessionFactory: RecognitionSessionFactory?
    /// Where analyzers created in this task run their tasks (a test's
    /// tracking scheduler); `nil` means the system's.
    @TaskLocal package static var scheduler: BridgeScheduler?
    /// The analysis slots analyzers created in this task take; `nil` means
    /// the process-wide slots (or none, when `sessionFactory` is overridden).
    @TaskLocal static var analysisSlots: ModernAnalysisSlots?
    /// The model retention analyzers created in this task report to; `nil`
    /// means the process's, over the engine's model cache.
    @TaskLocal static var modelRetention: ModelRetention?
}

/// The limit on analyses running at once (Apple's "simultaneous analyses"
/// limit, which fails with `insufficientResources`).
final class ModernAnalysisSlots: Sendable {
    /// The slots of the process: `SPEECHCOMPAT_MAX_ANALYSES` of them, else 4.
    static let shared = ModernAnalysisSlots(
        limit: ProcessInfo.processInfo.environment["SPEECHCOMPAT_MAX_ANALYSES"].flatMap(Int.init) ?? 4)

    /// How many analyses may run at once.
    let limit: Int
    private let inUse = LockedState(0)

    /// Slots allowing `limit` analyses at once.
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Takes a slot; `false` when all are taken.
    func acquire() -> Bool {
        inUse.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives a slot back.
    func release() {
        inUse.withLock { $0 = max(0, $0 - 1) }
    }
}
