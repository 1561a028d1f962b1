import Foundation
import Testing
@testable import SpeechEngine

/// A model loaded at its first need: once, however many ask at once, kept
/// from then on; a failed load is the error of every later ask.
@Suite struct DeferredTranscriberTests {
    /// Counts loads across threads.
    private final class Loads: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        var count: Int { lock.withLock { value } }
        func add() { lock.withLock { value += 1 } }
    }

    @Test func loadsOnceAtTheFirstAskAndKeepsIt() throws {
        let loads = Loads()
        let model = try TinyWhisper.model()
        let deferred = DeferredTranscriber {
            loads.add()
            return Transcriber(model: model)
        }
        #expect(loads.count == 0)
        let first = try deferred.transcriber()
        let second = try deferred.transcriber()
        #expect(first === second)
        #expect(loads.count == 1)
    }

    @Test func askersDuringAPrefetchWaitForItsModel() async throws {
        let loads = Loads()
        let model = try TinyWhisper.model()
        let deferred = DeferredTranscriber {
            loads.add()
            Thread.sleep(forTimeInterval: 0.05) // a load that takes a while, so the askers come during it
            return Transcriber(model: model)
        }
        deferred.prefetch()
        deferred.prefetch()
        let got = try await withThrowingTaskGroup(of: Transcriber.self) { group in
            for _ in 0..<4 { group.addTask { try deferred.transcriber() } }
            return try await group.reduce(into: [Transcriber]()) { $0.append($1) }
        }
        #expect(got.count == 4 && got.allSatisfy { $0 === got[0] })
        #expect(loads.count == 1)
    }

    @Test func aFailedLoadIsTheErrorOfEveryAsk() {
        let loads = Loads()
        let deferred = DeferredTranscriber {
            loads.add()
            throw EngineError(.modelNotFound, "No whisper-base; run `speech assets install whisper-base`.")
        }
        for _ in 0..<2 {
            let error = #expect(throws: EngineError.self) { try deferred.transcriber() }
            #expect(error?.code == .modelNotFound)
        }
        #expect(loads.count == 1)
    }

    @Test func aLoadedOneNeverLoads() throws {
        let transcriber = Transcriber(model: try TinyWhisper.model())
        let deferred = DeferredTranscriber(transcriber)
        deferred.prefetch()
        #expect(try deferred.transcriber() === transcriber)
    }
}
