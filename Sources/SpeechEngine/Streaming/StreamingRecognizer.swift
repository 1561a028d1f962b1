import Foundation

/// Live recognition: append 16 kHz mono samples in chunks of any size, read
/// one ordered stream of `StreamingEvent`s. Both Apple faces use this type.
///
/// Work runs on one worker task, in order. `append` never blocks; when the
/// worker falls behind real time it skips volatile passes (finals are never
/// skipped). `cancel()` stops work at the next window or decoding step.
public final class StreamingRecognizer: Sendable {
    /// Events in order; ends after `.finished` or `.failed`.
    public let events: AsyncStream<StreamingEvent>

    private let input: AsyncStream<[Float]>.Continuation
    private let state: State
    private let worker: Task<Void, Never>

    /// - Parameters:
    ///   - accurate: the model for final results.
    ///   - fast: a faster model for volatile results (defaults to `accurate`).
    public init(accurate: Transcriber, fast: Transcriber? = nil, options: StreamingOptions) {
        let (events, output) = AsyncStream<StreamingEvent>.makeStream(bufferingPolicy: .unbounded)
        let (chunks, input) = AsyncStream<[Float]>.makeStream(bufferingPolicy: .unbounded)
        let state = State()
        self.events = events
        self.input = input
        self.state = state
        let pipeline = StreamingPipeline(accurate: accurate, fast: fast ?? accurate, options: options,
                                         volatileInterruption: state.volatileInterruption)
        worker = Task.detached(priority: .userInitiated) {
            await Self.run(pipeline, chunks: chunks, state: state, output: output)
        }
    }

    deinit {
        input.finish()
    }

    /// Appends samples following those already appended. Ignored after `finish()` or `cancel()`.
    public func append(_ samples: [Float]) {
        guard !samples.isEmpty, state.accepts(samples.count) else { return }
        input.yield(samples)
    }

    /// No more audio: what is pending is finalized, then `.finished`.
    public func finish() {
        state.close()
        input.finish()
    }

    /// Stops now: no further results; the stream ends with `.failed(.cancelled)`.
    public func cancel() {
        state.close()
        state.markCancelled()
        input.finish()
        worker.cancel()
    }

    /// Samples appended but not yet processed (how far behind the worker is).
    public var pendingSampleCount: Int { state.pending }

    private static func run(_ pipeline: StreamingPipeline, chunks: AsyncStream<[Float]>, state: State,
                            output: AsyncStream<StreamingEvent>.Continuation) async {
        var pipeline = pipeline
        let behindLimit = Int(0.3 * StreamingPipeline.sampleRate)
        do {
            for await chunk in chunks {
                try checkCancellation(state)
                state.consumed(chunk.count)
                for event in try pipeline.consume(chunk, mayRunVolatile: state.pending < behindLimit) {
                    output.yield(event)
                }
            }
            try checkCancellation(state)
            for event in try pipeline.finish() { output.yield(event) }
            try checkCancellation(state)
            output.yield(.finished)
        } catch let error as EngineError {
            output.yield(.failed(error))
        } catch {
            output.yield(.failed(EngineError(.internalInconsistency, "Streaming recognition failed.", underlying: error)))
        }
        output.finish()
    }

    private static func checkCancellation(_ state: State) throws {
        if state.isCancelled || Task.isCancelled {
            throw EngineError(.cancelled, "Recognition was cancelled.")
        }
    }

    /// Flags shared between callers and the worker.
    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var closed = false
        private var cancelled = false
        private var pendingSamples = 0

        func accepts(_ count: Int) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            if !closed { pendingSamples += count }
            return !closed
        }
        func consumed(_ count: Int) { lock.lock(); pendingSamples -= count; lock.unlock() }
        /// Raised with `close()`: a volatile pass then running stops.
        let volatileInterruption = Interruption()

        func close() {
            lock.lock()
            closed = true
            lock.unlock()
            volatileInterruption.raise()
        }
        func markCancelled() { lock.lock(); cancelled = true; lock.unlock() }
        var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelled }
        var pending: Int { lock.lock(); defer { lock.unlock() }; return pendingSamples }
    }
}
