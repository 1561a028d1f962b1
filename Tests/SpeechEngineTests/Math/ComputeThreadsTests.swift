import Foundation
@testable import SpeechEngine
import Testing

@Suite struct ComputeThreadsTests {
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
