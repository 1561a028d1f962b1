import Foundation
import Testing
@testable import Speech

@Suite struct DeliveryQueueTests {
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int] = []
        private var running = 0
        private(set) var overlapped = false
        func enter() { lock.withLock { running += 1; if running > 1 { overlapped = true } } }
        func leave(_ value: Int) { lock.withLock { running -= 1; values.append(value) } }
        var all: [Int] { lock.withLock { values } }
    }

    @Test func callbacksRunInOrderWithoutOverlapOnAConcurrentQueue() async {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 4
        let delivery = DeliveryQueue(queue: queue)
        let log = Log()
        for value in 0..<200 {
            delivery.submit {
                log.enter()
                if value % 50 == 0 { usleep(1_000) }
                log.leave(value)
            }
        }
        // A callback submitted from inside a callback runs after it.
        delivery.submit { delivery.submit { log.enter(); log.leave(1_000) }; log.enter(); log.leave(999) }
        let done = await TaskRecorder().waitUntil { log.all.count == 202 }
        #expect(done)
        #expect(log.all == Array(0..<200) + [999, 1_000])
        #expect(!log.overlapped)
    }
}
