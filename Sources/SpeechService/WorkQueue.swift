import Foundation

/// The bounded queue in front of the engine: at most `workerCount` jobs run
/// at once, at most `waitingLimit` more wait, and anything beyond is refused
/// at once (back-pressure: 503 with `Retry-After`) instead of piling up.
///
/// A job runs as a task on one of `workerCount` dedicated `WorkerThreads`,
/// never on Swift's cooperative pool; its caller (an HTTP connection's own
/// thread) waits for it, so a waiting job costs a blocked thread and no
/// memory beyond its upload. After each job the allocator returns what the
/// job freed (`AllocatorTuning.releaseFreeMemory`).
final class WorkQueue: @unchecked Sendable {
    // `running`, `waiting`, `closed` and `inFlight` are guarded by `condition`.
    private let condition = NSCondition()
    private var running = 0
    private var waiting = 0
    private var closed = false
    private var inFlight: [UUID: Task<Void, Never>] = [:]

    /// Jobs that run at once.
    let workerCount: Int
    /// Jobs that may wait for a worker.
    let waitingLimit: Int
    /// The threads jobs run on, one per worker.
    let workers: WorkerThreads

    init(workerCount: Int, waitingLimit: Int) {
        self.workerCount = max(1, workerCount)
        self.waitingLimit = max(0, waitingLimit)
        workers = WorkerThreads(count: self.workerCount, name: "speech.serve.worker")
    }

    deinit {
        workers.stop()
    }

    /// Running and waiting jobs, for `/health`.
    var load: (running: Int, waiting: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (running, waiting)
    }

    /// Runs `job` in a task on a worker thread when a worker is free and returns its result;
    /// throws `ServiceError(.busy)` when the queue is full or closed. The task
    /// is cancelled by `cancelAll()` (shutdown), which the engine notices
    /// between decoding steps.
    func run<T: Sendable>(_ job: @escaping @Sendable () async throws -> T) throws -> T {
        try reserve()
        return try runReserved(job)
    }

    /// Takes a place in the queue, or throws `ServiceError(.busy)`; follow
    /// with `runReserved` (streamed answers reserve before their headers go out).
    func reserve() throws(ServiceError) {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else {
            throw ServiceError(.busy, code: "shutting_down", "The service is shutting down; retry against a running one.")
        }
        guard running + waiting < workerCount + waitingLimit else {
            throw ServiceError(.busy, code: "queue_full",
                               "All \(workerCount) workers are busy and \(waitingLimit) requests wait already; retry shortly.")
        }
        waiting += 1
    }

    /// `run` for a job whose place `reserve()` took.
    func runReserved<T: Sendable>(_ job: @escaping @Sendable () async throws -> T) throws -> T {
        condition.lock()
        while running >= workerCount && !closed { condition.wait() }
        waiting -= 1
        if closed {
            condition.signal()
            condition.unlock()
            throw ServiceError(.busy, code: "shutting_down", "The service shut down before this request ran; retry later.")
        }
        running += 1
        let id = UUID()
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        let task = Task(executorPreference: workers) {
            do {
                box.result = .success(try await job())
            } catch {
                box.result = .failure(error)
            }
            AllocatorTuning.releaseFreeMemory()
            done.signal()
        }
        inFlight[id] = task
        condition.unlock()
        done.wait()
        condition.lock()
        inFlight[id] = nil
        running -= 1
        condition.broadcast()
        condition.unlock()
        return try box.result!.get()
    }

    /// Refuses new jobs, wakes the waiting ones (they fail with 503), and
    /// cancels the running ones when `cancelRunning` is set.
    func close(cancelRunning: Bool) {
        condition.lock()
        closed = true
        let tasks = Array(inFlight.values)
        condition.broadcast()
        condition.unlock()
        if cancelRunning { tasks.forEach { $0.cancel() } }
    }

    /// Ends the worker threads once their queued work is done (after
    /// `close` and `waitUntilIdle`, at shutdown).
    func stopWorkers() {
        workers.stop()
    }

    /// Waits until no job runs, or `timeoutSeconds` passed; true if idle.
    func waitUntilIdle(timeoutSeconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        condition.lock()
        defer { condition.unlock() }
        while running + waiting > 0 {
            if !condition.wait(until: deadline) { return running + waiting == 0 }
        }
        return true
    }

    /// A job's result, handed from its task to the waiting thread (the
    /// semaphore orders the write before the read).
    private final class ResultBox<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }
}
