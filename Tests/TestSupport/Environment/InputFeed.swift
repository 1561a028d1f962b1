import AVFoundation
import Foundation
import Speech

/// An analyzer input sequence fed by the test, one buffer at a time.
///
/// Like `ScriptedBackend`'s updates, it hands inputs over on demand: while
/// the analyzer waits for the next one it is parked on the environment's
/// `ActivityTracker`, so `drain()` returns once the analyzer has consumed
/// everything fed so far (and reacted to it).
package final class InputFeed: Sendable {
    private struct State {
        var buffered: [AnalyzerInput] = []
        var ended = false
        var reader: CheckedContinuation<AnalyzerInput?, Never>?
    }

    /// The state, shared with the stream's producer.
    private final class Shared: Sendable {
        let state = LockedState(State())
    }

    private let shared: Shared
    private let tracker: ActivityTracker
    /// The sequence to give the analyzer.
    package let stream: AsyncStream<AnalyzerInput>

    init(tracker: ActivityTracker) {
        self.tracker = tracker
        let shared = Shared()
        self.shared = shared
        stream = AsyncStream(unfolding: { await InputFeed.next(from: shared, tracker: tracker) })
    }

    /// Yields `seconds` of a quiet tone in buffers of `chunk` seconds.
    package func yield(seconds: Double, chunk: Double = 0.5) {
        var remaining = seconds
        while remaining > 1e-9 {
            let length = min(chunk, remaining)
            yield(AnalyzerInput(buffer: Script.buffer(seconds: length)))
            remaining -= length
        }
    }

    /// Yields one input.
    package func yield(_ input: AnalyzerInput) {
        shared.state.withLock { state in
            guard !state.ended else { return }
            if let reader = state.reader {
                state.reader = nil
                tracker.unpark()
                reader.resume(returning: input)
            } else {
                state.buffered.append(input)
            }
        }
    }

    /// Ends the input sequence (after the inputs already yielded).
    package func end() {
        shared.state.withLock { state in
            state.ended = true
            if let reader = state.reader {
                state.reader = nil
                tracker.unpark()
                reader.resume(returning: nil)
            }
        }
    }

    private static func next(from shared: Shared, tracker: ActivityTracker) async -> AnalyzerInput? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<AnalyzerInput?, Never>) in
                shared.state.withLock { state in
                    if !state.buffered.isEmpty {
                        continuation.resume(returning: state.buffered.removeFirst())
                    } else if state.ended || Task.isCancelled {
                        continuation.resume(returning: nil)
                    } else {
                        state.reader = continuation
                        tracker.park()
                    }
                }
            }
        } onCancel: {
            shared.state.withLock { state in
                guard let reader = state.reader else { return }
                state.reader = nil
                tracker.unpark()
                reader.resume(returning: nil)
            }
        }
    }
}
