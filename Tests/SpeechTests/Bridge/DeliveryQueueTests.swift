import Foundation
import TestSupport
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
        let environment = SpeechTestEnvironment()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 4
        let delivery = DeliveryQueue(queue: queue, scheduler: environment.scheduler)
        let log = Log()
        for value in 0..<200 {
            delivery.submit {
                log.enter()
                log.leave(value)
            }
        }
        // A callback submitted from inside a callback runs after it.
        delivery.submit { delivery.submit { log.enter(); log.leave(1_000) }; log.enter(); log.leave(999) }
        await environment.drain()
        #expect(log.all == Array(0..<200) + [999, 1_000])
        #expect(!log.overlapped)
    }

    @Test func submittersOnManyThreadsKeepTheirOwnOrder() async {
        let environment = SpeechTestEnvironment()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 4
        let delivery = DeliveryQueue(queue: queue, scheduler: environment.scheduler)
        let log = Log()
        DispatchQueue.concurrentPerform(iterations: 4) { submitter in
            for index in 0..<100 {
                delivery.submit {
                    log.enter()
                    log.leave(submitter * 1_000 + index)
                }
            }
        }
        await environment.drain()
        let all = log.all
        #expect(all.count == 400)
        #expect(!log.overlapped)
        for submitter in 0..<4 {
            #expect(all.filter { $0 / 1_000 == submitter } == (0..<100).map { submitter * 1_000 + $0 })
        }
    }

    @Test func drainWaitsForCallbacksStillRunning() async {
        let environment = SpeechTestEnvironment()
        let queue = OperationQueue()
        let delivery = DeliveryQueue(queue: queue, scheduler: environment.scheduler)
        let log = Log()
        let gate = DispatchSemaphore(value: 0)
        delivery.submit { gate.wait(); log.leave(1) }
        delivery.submit { log.leave(2) }
        #expect(!environment.tracker.isQuiet)
        gate.signal()
        await environment.drain()
        #expect(log.all == [1, 2])
        #expect(environment.tracker.isQuiet)
    }
}
