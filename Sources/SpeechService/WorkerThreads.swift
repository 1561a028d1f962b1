import Foundation

/// A fixed set of threads that run the service's recognition jobs, as a
/// Swift `TaskExecutor`.
///
/// A transcription blocks its thread for seconds of matrix work. On Swift's
/// cooperative pool (one thread per core, two here) two such jobs would
/// starve every other task in the process; on these threads they starve
/// nothing. Jobs are tasks started with this executor as their preference,
/// so `Task.isCancelled` (which the engine checks between decoding steps)
/// still reaches them, and shutdown can cancel them.
final class WorkerThreads: TaskExecutor, @unchecked Sendable {
    // `jobs` and `stopping` are guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false
    private var living: Int

    /// Starts `count` threads named `name.N`.
    init(count: Int, name: String) {
        living = count
        for index in 0..<count {
            let threadName = "\(name).\(index)"
            let thread = Thread { [self] in
                // Foundation does not name the kernel thread on Linux; naming it
                // shows the workers in `top -H` and lets tests tell them apart.
                try? String(threadName.prefix(15)).write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
                loop()
            }
            thread.name = threadName
            thread.start()
        }
    }

    /// Called by the runtime with each piece of a task that prefers this executor.
    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    /// Lets the threads end once the jobs queued are run (service shutdown).
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// Threads not yet ended (tests check that `stop` ends them).
    var threadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return living
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            guard !jobs.isEmpty else {
                living -= 1
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
