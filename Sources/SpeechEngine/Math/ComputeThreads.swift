import CBLAS
import Foundation
import Synchronization

/// The engine's compute threads: the caller plus long-lived helpers, each
/// calling OpenBLAS single-threaded on its own share of a job.
///
/// OpenBLAS's own threading was the first design. Its idle workers busy-wait
/// (sched_yield) for about 0.1 s after every call, so on a 2-core machine the
/// spinning worker took a core from anything the engine ran between BLAS
/// calls (attention softmax, the beam's logits blocks), and it cannot split
/// the work that matters here (many small per-head and per-beam calls).
/// Here OpenBLAS stays at one thread and the engine splits jobs itself:
/// GEMM rows, attention heads, halves of the vocabulary.
enum ComputeThreads {
    /// At most two: these machines have two cores.
    static var defaultCount: Int { min(2, ProcessInfo.processInfo.activeProcessorCount) }

    private static let requested = Atomic<Int>(0)

    /// Threads a job is split over (set per request with `use`).
    static var current: Int {
        let count = requested.load(ordering: .relaxed)
        return count > 0 ? count : defaultCount
    }

    /// Pins OpenBLAS to one thread. The BLAS users that run outside a
    /// transcription (mel front end, speech detector) call it first;
    /// transcriptions go through `use`, which does the same.
    static func prepare() {
        PartWorkers.shared.start(helpers: 0)
    }

    /// Sets the thread count for the jobs that follow (process-wide), at
    /// most one per processor.
    static func use(_ count: Int) {
        let count = clamped(count)
        PartWorkers.shared.start(helpers: count - 1)
        requested.store(count, ordering: .relaxed)
    }

    /// A requested thread count made valid: at least one, one per processor at most.
    static func clamped(_ count: Int) -> Int {
        max(1, min(count, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Runs `body(part)` for `parts` disjoint parts of one job, at once on
    /// the caller and the helpers; returns when every part is done. `body`
    /// must only write its own part's output.
    static func split(into parts: Int, _ body: (Int) -> Void) {
        guard parts > 1 else { return body(0) }
        PartWorkers.shared.run(parts: parts, body)
    }
}

/// Helper threads with a low-latency hand-off. A decoder step is about fifty
/// jobs of tens of microseconds, so a helper spins briefly for the next job
/// before it sleeps on its semaphore (the caller wakes it only when asleep).
private final class PartWorkers: @unchecked Sendable {
    static let shared = PartWorkers(maximumHelperCount: ProcessInfo.processInfo.activeProcessorCount - 1)

    private enum State { static let idle = 0, posted = 1, asleep = 2 }
    /// Checks a helper makes, yielding the CPU between them, before it sleeps
    /// (a few hundred microseconds). Yielding keeps a waiting thread from
    /// holding a core that another process or the job's other half needs.
    private static let spinLimit = 500

    /// One helper's hand-off: its state and the semaphore it sleeps on.
    private final class Slot: Sendable {
        let state = Atomic(State.idle)
        let wake = DispatchSemaphore(value: 0)
    }

    let maximumHelperCount: Int
    private let slots: [Slot]
    private let completed = Atomic<Int>(0)
    private let busy = NSLock()
    // Written under `busy` before a release store of `posted`; read after an acquire load.
    private var job: ((Int) -> Void)?
    /// Helper threads running; they are started on demand and never stop.
    private let started = Atomic<Int>(0)
    private let starting = NSLock()

    private init(maximumHelperCount: Int) {
        self.maximumHelperCount = max(0, maximumHelperCount)
        slots = (0..<self.maximumHelperCount).map { _ in Slot() }
        // Keep OpenBLAS from starting its own spinning workers.
        BLAS.useOneThread()
    }

    /// Makes sure at least `helpers` helper threads run.
    func start(helpers: Int) {
        let wanted = min(helpers, maximumHelperCount)
        guard started.load(ordering: .acquiring) < wanted else { return }
        starting.lock()
        defer { starting.unlock() }
        let running = started.load(ordering: .relaxed)
        guard running < wanted else { return }
        for helper in running..<wanted {
            let thread = Thread { [self] in loop(helper) }
            thread.name = "speechcompat-compute-\(helper + 1)"
            thread.start()
        }
        started.store(wanted, ordering: .releasing)
    }

    private func loop(_ helper: Int) {
        let slot = slots[helper]
        while true {
            var spins = 0
            while slot.state.load(ordering: .acquiring) != State.posted {
                spins += 1
                if spins < Self.spinLimit {
                    sched_yield()
                    continue
                }
                if slot.state.compareExchange(expected: State.idle, desired: State.asleep,
                                              ordering: .acquiringAndReleasing).exchanged {
                    slot.wake.wait()
                }
                spins = 0
            }
            job?(helper + 1)
            slot.state.store(State.idle, ordering: .releasing)
            completed.add(1, ordering: .releasing)
        }
    }

    func run(parts: Int, _ body: (Int) -> Void) {
        // A second job at the same moment (two transcriptions at once) runs on its caller alone.
        guard busy.try() else { return (0..<parts).forEach(body) }
        defer { busy.unlock() }
        withoutActuallyEscaping(body) { body in
            let helpers = min(started.load(ordering: .acquiring), parts - 1)
            job = body
            completed.store(0, ordering: .relaxed)
            for helper in 0..<helpers {
                if slots[helper].state.exchange(State.posted, ordering: .acquiringAndReleasing) == State.asleep {
                    slots[helper].wake.signal()
                }
            }
            body(0)
            for part in (helpers + 1)..<parts { body(part) }
            while completed.load(ordering: .acquiring) < helpers { sched_yield() }
            job = nil
        }
    }
}
