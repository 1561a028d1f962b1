import Foundation
@testable import SpeechService
import TestSupport
import Testing

/// The queue's jobs run on its own threads, not Swift's cooperative pool:
/// blocking jobs there leave the pool free, cancellation still reaches
/// them, and shutdown ends the threads.
@Suite struct WorkerThreadsTests {
    @Test func jobsRunOnTheWorkerThreads() throws {
        let queue = WorkQueue(workerCount: 2, waitingLimit: 0)
        defer { queue.stopWorkers() }
        #expect(!Self.currentThreadName().hasPrefix("speech.serve"))
        let name = try queue.run { () -> String in Self.currentThreadName() }
        #expect("speech.serve.worker.0".hasPrefix(name) && name.hasPrefix("speech.serve.w"), "\(name)")
    }

    /// As many blocking jobs as the pool has threads (and more) run while a
    /// task on the cooperative pool still gets to run.
    @Test func blockingJobsLeaveTheCooperativePoolFree() async throws {
        let count = ProcessInfo.processInfo.activeProcessorCount + 1
        let queue = WorkQueue(workerCount: count, waitingLimit: 0)
        defer { queue.stopWorkers() }
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            Thread.detachNewThread {
                _ = try? queue.run { () -> Int in
                    started.signal()
                    release.wait()  // a job that blocks its thread, like a transcription
                    return 0
                }
            }
        }
        for _ in 0..<count { started.wait() }
        #expect(queue.load.running == count)
        // Every job is blocking now; the cooperative pool must still run this.
        let answered = await Task.detached { 42 }.value
        #expect(answered == 42)
        for _ in 0..<count { release.signal() }
        #expect(queue.waitUntilIdle(timeoutSeconds: hangGuardSeconds))
    }

    @Test func closingWithCancellationReachesARunningJob() throws {
        let queue = WorkQueue(workerCount: 1, waitingLimit: 0)
        defer { queue.stopWorkers() }
        let started = DispatchSemaphore(value: 0)
        let outcome = OutcomeBox()
        let callerDone = DispatchSemaphore(value: 0)
        let caller = Thread {
            do {
                let cancelled = try queue.run { () -> Bool in
                    started.signal()
                    let deadline = Date().addingTimeInterval(20)
                    while !Task.isCancelled && Date() < deadline { usleep(1_000) }
                    return Task.isCancelled
                }
                outcome.set(cancelled ? "cancelled" : "ran out")
            } catch {
                outcome.set("threw \(error)")
            }
            callerDone.signal()
        }
        caller.start()
        started.wait()
        queue.close(cancelRunning: true)
        #expect(callerDone.wait(timeout: .now() + hangGuardSeconds) == .success)
        #expect(outcome.value == "cancelled")
        // Closed: new work is refused with 503.
        #expect(throws: ServiceError.self) { try queue.run { 1 } }
    }

    @Test func stoppingEndsTheThreads() throws {
        let workers = WorkerThreads(count: 3, name: "test.workers")
        #expect(workers.threadCount == 3)
        workers.stop()
        let deadline = Date().addingTimeInterval(5)
        while workers.threadCount > 0 && Date() < deadline { usleep(5_000) }
        #expect(workers.threadCount == 0)
    }

    /// The calling thread's kernel name (`Thread.current` is not for async
    /// contexts); Linux keeps its first 15 bytes.
    static func currentThreadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private final class OutcomeBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored = ""
        func set(_ text: String) { lock.withLock { stored = text } }
        var value: String { lock.withLock { stored } }
    }
}
