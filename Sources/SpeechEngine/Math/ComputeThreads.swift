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
/// GEMM rows, attention heads, blocks of a product's outputs, a few parts per
/// thread that the threads take in turn.
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

    /// Parts a job of `units` independent units is cut into: a few per
    /// thread, so that when one thread is held up (another process on the
    /// core, a helper still waking) the others take its remaining parts
    /// instead of waiting for it. One thread takes the job whole.
    static func shares(of units: Int) -> Int {
        let threads = current
        return threads > 1 ? max(1, min(units, threads * sharesPerThread)) : 1
    }

    /// Four parts a thread: enough for a thread held up for a part's length
    /// to cost the job a quarter of its share, few enough that a part of a
    /// decoder step's smallest product is still 48 outputs (whisper-tiny's
    /// 384 over two threads; whisper-base's 512 give 64).
    static let sharesPerThread = 4

    /// Runs `body(part)` for `parts` disjoint parts of one job on the caller
    /// and the helpers, each thread taking the next part not yet taken;
    /// returns when every part is done. `body` must only write its own
    /// part's output.
    static func split(into parts: Int, _ body: (Int) -> Void) {
        split(into: parts) { part, _ in body(part) }
    }

    /// `split` over at most `threads` threads that tells `body` which one
    /// runs the part: `worker` is below `threads`, and no two parts run at
    /// once on the same worker, so per-worker scratch needs no lock.
    static func split(into parts: Int, threads: Int = current, _ body: (_ part: Int, _ worker: Int) -> Void) {
        guard parts > 1, threads > 1 else { return (0..<parts).forEach { body($0, 0) } }
        PartWorkers.shared.run(parts: parts, threads: threads, body)
    }
}

/// Helper threads with a low-latency hand-off. A decoder step is about fifty
/// jobs of tens of microseconds, so a helper spins briefly for the next job
/// before it sleeps on its semaphore (the caller wakes it only when asleep).
///
/// The caller and every helper that has claimed the job take parts from one
/// counter until none is left, and the caller, once the parts are all taken,
/// takes back the job from every helper that has not claimed it yet. On a
/// busy machine a helper is often descheduled or still waking when a job is
/// posted; when each thread had one fixed part, waiting for it made a step
/// of the small decoder take 10–25 ms for 1 ms of arithmetic and a file take
/// 1.5–2x as long beside one other busy process (Benchmarks/RESULTS.md).
private final class PartWorkers: @unchecked Sendable {
    static let shared = PartWorkers(maximumHelperCount: ProcessInfo.processInfo.activeProcessorCount - 1)

    /// A slot goes idle → posted (caller) → running (helper's claim) → idle,
    /// or posted → idle when the caller takes the job back; idle → asleep
    /// (helper) → posted (caller, which then signals).
    private enum State { static let idle = 0, posted = 1, asleep = 2, running = 3 }
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
    private let busy = NSLock()
    // `job` and `partCount` are written under `busy` before a release store of
    // `posted`, and read by a helper after its acquiring claim.
    private var job: ((Int, Int) -> Void)?
    private var partCount = 0
    /// The next part not yet taken.
    private let nextPart = Atomic<Int>(0)
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
            while !(slot.state.load(ordering: .relaxed) == State.posted
                    && slot.state.compareExchange(expected: State.posted, desired: State.running,
                                                  ordering: .acquiringAndReleasing).exchanged) {
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
            takeParts(worker: helper + 1)
            slot.state.store(State.idle, ordering: .releasing)
        }
    }

    /// Runs parts from the shared counter until none is left.
    private func takeParts(worker: Int) {
        guard let job else { return }
        while true {
            let part = nextPart.wrappingAdd(1, ordering: .relaxed).oldValue
            guard part < partCount else { return }
            job(part, worker)
        }
    }

    func run(parts: Int, threads: Int, _ body: (Int, Int) -> Void) {
        // A second job at the same moment (two transcriptions at once) runs on its caller alone.
        guard busy.try() else { return (0..<parts).forEach { body($0, 0) } }
        defer { busy.unlock() }
        withoutActuallyEscaping(body) { body in
            let helpers = min(started.load(ordering: .acquiring), threads - 1, parts - 1)
            job = body
            partCount = parts
            nextPart.store(0, ordering: .relaxed)
            for helper in 0..<helpers {
                if slots[helper].state.exchange(State.posted, ordering: .acquiringAndReleasing) == State.asleep {
                    slots[helper].wake.signal()
                }
            }
            takeParts(worker: 0)
            // Every part is taken; a helper that has not claimed the job yet
            // has none of them and is taken off it, and one that has is
            // finishing its last part.
            for slot in slots.prefix(helpers)
            where !slot.state.compareExchange(expected: State.posted, desired: State.idle,
                                              ordering: .relaxed).exchanged {
                // The helper's release store of idle publishes its parts' output.
                while slot.state.load(ordering: .acquiring) == State.running { sched_yield() }
            }
            job = nil
        }
    }
}
