import CBLAS
import Foundation

/// OpenBLAS's thread count is process-wide; the engine sets it per stage.
/// Idle OpenBLAS workers busy-wait (sched_yield) for a while after each call,
/// so on a 2-core machine more threads than work only steal the CPU.
enum BLASThreads {
    /// At most two: these machines have two cores.
    static var defaultCount: Int { min(2, ProcessInfo.processInfo.activeProcessorCount) }

    /// The thread count in force now.
    static var current: Int { Int(openblas_get_num_threads()) }

    static func use(_ count: Int) {
        let wanted = Int32(max(1, count))
        if openblas_get_num_threads() != wanted { openblas_set_num_threads(wanted) }
    }
}
