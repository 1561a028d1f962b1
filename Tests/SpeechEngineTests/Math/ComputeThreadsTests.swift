import Foundation
import Synchronization
@testable import SpeechEngine
import Testing

@Suite(.serialized) struct ComputeThreadsTests {
    @Test func everyPartRunsExactlyOnce() {
        let previous = ComputeThreads.current
        ComputeThreads.use(2)
        defer { ComputeThreads.use(previous) }
        for parts in [1, 2, 3, 7] {
            var counts = [Int](repeating: 0, count: parts)
            counts.withUnsafeMutableBufferPointer { c in
                ComputeThreads.split(into: parts) { part in c[part] += 1 }
            }
            #expect(counts == [Int](repeating: 1, count: parts))
        }
    }

    /// Many tiny jobs, some after the helper has gone to sleep: whether the
    /// helper claims its part or the caller takes it back, each part runs
    /// once and its output is there when `split` returns.
    @Test func tinyJobsRunEachPartOnceWhoeverRunsIt() {
        ComputeThreads.use(2)
        var counts = [Int](repeating: 0, count: 2)
        for round in 0..<20_000 {
            if round % 2_000 == 0 { usleep(5_000) }
            counts.withUnsafeMutableBufferPointer { c in
                ComputeThreads.split(into: 2) { part in c[part] += 1 }
            }
            #expect(counts == [round + 1, round + 1])
            if counts != [round + 1, round + 1] { break }
        }
    }

    /// A helper asleep when its part is posted takes longer to wake than an
    /// empty part takes the caller, so the caller runs the helper's part
    /// itself rather than wait for it.
    @Test func theCallerTakesBackAPartNoHelperHasStarted() {
        ComputeThreads.use(2)
        guard ComputeThreads.current == 2 else { return }
        let caller = pthread_self()
        var takenBack = 0
        for _ in 0..<20 {
            usleep(20_000)  // past the helper's spin: it sleeps on its semaphore
            var ranOnCaller = false
            withUnsafeMutablePointer(to: &ranOnCaller) { flag in
                ComputeThreads.split(into: 2) { part in
                    if part == 1 { flag.pointee = pthread_equal(pthread_self(), caller) != 0 }
                }
            }
            if ranOnCaller { takenBack += 1 }
        }
        #expect(takenBack > 0)
    }

    /// A thread held up inside a part (here the helper, asleep in its first)
    /// keeps only that part: the caller takes every other.
    @Test func aHeldUpThreadKeepsOnlyThePartItIsIn() {
        ComputeThreads.use(2)
        guard ComputeThreads.current == 2 else { return }
        ComputeThreads.split(into: 2) { _ in }  // the helper is awake and spinning
        var workers = [Int](repeating: -1, count: 8)
        workers.withUnsafeMutableBufferPointer { w in
            ComputeThreads.split(into: 8) { part, worker in
                w[part] = worker
                usleep(worker == 1 ? 200_000 : 1_000)
            }
        }
        #expect(!workers.contains(-1))
        #expect(workers.filter { $0 == 1 }.count <= 1)
    }

    /// Per-worker scratch: every worker index is below the thread count, and
    /// no two parts run on one worker at the same time.
    @Test func aWorkerRunsOnePartAtATime() {
        ComputeThreads.use(2)
        let inUse = Atomic<Int>(0)  // a bit per worker
        let overlaps = Atomic<Int>(0)
        let outOfRange = Atomic<Int>(0)
        for _ in 0..<2_000 {
            ComputeThreads.split(into: 8, threads: 2) { _, worker in
                guard worker < 2 else {
                    outOfRange.add(1, ordering: .relaxed)
                    return
                }
                let bit = 1 << worker
                if inUse.bitwiseOr(bit, ordering: .relaxed).oldValue & bit != 0 { overlaps.add(1, ordering: .relaxed) }
                for _ in 0..<50 { _ = overlaps.load(ordering: .relaxed) }
                inUse.bitwiseAnd(~bit, ordering: .relaxed)
            }
        }
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(outOfRange.load(ordering: .relaxed) == 0)
    }

    @Test func sharesAreAFewPerThreadAndOneForOneThread() {
        let previous = ComputeThreads.current
        defer { ComputeThreads.use(previous) }
        ComputeThreads.use(1)
        #expect(ComputeThreads.shares(of: 1_000) == 1)
        ComputeThreads.use(2)
        if ComputeThreads.current == 2 {
            #expect(ComputeThreads.shares(of: 1_000) == 2 * ComputeThreads.sharesPerThread)
            #expect(ComputeThreads.shares(of: 3) == 3)
            #expect(ComputeThreads.shares(of: 0) == 1)
        }
    }

    /// Several transcriptions at once: a job that finds the helpers busy runs
    /// on its own caller, and every job still completes every part.
    @Test func concurrentJobsAllComplete() async {
        ComputeThreads.use(2)
        let totals = await withTaskGroup(of: Int.self) { group in
            for job in 0..<8 {
                group.addTask {
                    var sums = [Int](repeating: 0, count: 2)
                    for _ in 0..<200 {
                        sums.withUnsafeMutableBufferPointer { s in
                            ComputeThreads.split(into: 2) { part in s[part] += part + job }
                        }
                    }
                    return sums.reduce(0, +)
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(totals.sorted() == (0..<8).map { 200 * (2 * $0 + 1) })
    }

    @Test func threadCountIsAtLeastOneAndAtMostOnePerProcessor() {
        #expect(ComputeThreads.clamped(0) == 1)
        #expect(ComputeThreads.clamped(-3) == 1)
        #expect(ComputeThreads.clamped(1_000) == ProcessInfo.processInfo.activeProcessorCount)
    }
}
