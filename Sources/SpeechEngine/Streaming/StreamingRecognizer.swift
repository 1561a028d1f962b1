import Foundation

/// Live recognition: append 16 kHz mono samples in chunks of any size (and
/// the other verbs: gaps, commits, recordings), read one ordered stream of
/// `StreamingEvent`s.
///
/// Work runs on one worker thread of its own, in the order the verbs were
/// called; decoding blocks it for seconds at a time, so it stays off Swift
/// concurrency's small cooperative pool. Calls never block. When the worker
/// falls behind real time it skips volatile passes (finals are never
/// skipped). `cancel()` stops work at the next decoding step. The thread
/// ends with the stream: after `.finished` or `.failed`.
public final class StreamingRecognizer: Sendable {
    /// Events in order; ends after `.finished` or `.failed`.
    public let events: AsyncStream<StreamingEvent>

    private let queue: CommandQueue

    /// - Parameters:
    ///   - accurate: the model for final results.
    ///   - fast: a faster model for volatile results (defaults to `accurate`).
    ///   - workload: counts and times the passes by kind, when given.
    public convenience init(accurate: Transcriber, fast: Transcriber? = nil, options: StreamingOptions,
                            workload: StreamingWorkload? = nil) {
        let accurate = DeferredTranscriber(accurate)
        self.init(live: accurate, recordings: accurate, fast: fast, options: options, workload: workload)
    }

    /// - Parameters:
    ///   - live: the model for live audio's final results, loaded at the
    ///     first pass that needs it unless prefetched (``ComputeType/live``).
    ///   - recordings: the model for recordings (`appendRecording`), decoded
    ///     as files, loaded at the first recording.
    ///   - fast: a faster model for volatile results (defaults to `live`).
    public convenience init(live: DeferredTranscriber, recordings: DeferredTranscriber, fast: Transcriber? = nil,
                            options: StreamingOptions, workload: StreamingWorkload? = nil) {
        self.init(options: options) { interruptions, emit in
            StreamingPipeline(live: live, recordings: recordings, fast: fast, options: options,
                              volatileInterruption: interruptions.volatile, cancellation: interruptions.cancellation,
                              workload: workload, emit: emit)
        }
    }

    /// A recognizer over scripted decoders (tests of the streaming logic without a model).
    convenience init(options: StreamingOptions, accurate: @escaping StreamingPipeline.Decode,
                     fast: @escaping StreamingPipeline.Decode) {
        self.init(options: options) { interruptions, emit in
            StreamingPipeline(accurate: accurate, fast: fast, options: options,
                              volatileInterruption: interruptions.volatile, cancellation: interruptions.cancellation,
                              emit: emit)
        }
    }

    private init(options: StreamingOptions,
                 makePipeline: @escaping (CommandQueue.Interruptions, @escaping (StreamingEvent) -> Void)
                    -> StreamingPipeline) {
        let (events, output) = AsyncStream<StreamingEvent>.makeStream(bufferingPolicy: .unbounded)
        let queue = CommandQueue()
        self.events = events
        self.queue = queue
        nonisolated(unsafe) let makePipeline = makePipeline
        let thread = Thread {
            var pipeline = makePipeline(queue.interruptions) { output.yield($0) }
            Self.run(&pipeline, queue: queue, output: output)
        }
        thread.name = "SpeechEngine.StreamingRecognizer"
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    deinit {
        // Nobody can add audio any more: what is pending is finalized, then the thread ends.
        queue.close()
    }

    /// Appends samples following those already appended. Ignored after `finish()` or `cancel()`.
    public func append(_ samples: [Float]) {
        guard !samples.isEmpty else { return }
        var samples = samples
        // The detector and the volatile passes see these before `Transcriber` does.
        SampleSanitizer.sanitize(&samples)
        queue.push(.audio(samples), sampleCount: samples.count)
    }

    /// Advances stream time by `seconds` without audio (a gap in the input).
    public func appendGap(seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        queue.push(.gap(Int((seconds * Transcriber.sampleRate).rounded())))
    }

    /// Appends audio that is all there, such as a file, to be decoded as
    /// `Transcriber` decodes files (the options' padding, beam and fallback);
    /// its windows come out as `.final`s as they are decoded.
    public func appendRecording(_ samples: [Float]) {
        guard !samples.isEmpty else { return }
        var samples = samples
        SampleSanitizer.sanitize(&samples)
        queue.push(.recording(samples))
    }

    /// Finalizes the words before `seconds` of stream time (audio appended
    /// up to now): one `.final` ending there, then `.committed`. Later audio
    /// stays volatile and keeps the committed text as context.
    public func commit(throughSeconds seconds: Double) {
        guard seconds.isFinite else { return }
        queue.push(.commit(Int((max(0, seconds) * Transcriber.sampleRate).rounded())))
    }

    /// No more audio: what is pending is finalized, then `.finished`.
    public func finish() {
        queue.close()
    }

    /// Stops now: no further results; the stream ends with `.failed(.cancelled)`.
    public func cancel() {
        queue.cancel()
    }

    /// Samples appended but not yet processed (how far behind the worker is).
    public var pendingSampleCount: Int { queue.pendingSampleCount }

    private static func run(_ pipeline: inout StreamingPipeline, queue: CommandQueue,
                            output: AsyncStream<StreamingEvent>.Continuation) {
        let behindLimit = Int(0.3 * Transcriber.sampleRate)
        do {
            while let command = queue.next() {
                try checkCancellation(queue)
                switch command {
                case .audio(let samples):
                    queue.consumed(samples.count)
                    try pipeline.consume(samples, mayRunVolatile: queue.pendingSampleCount < behindLimit)
                case .gap(let sampleCount): try pipeline.appendGap(sampleCount: sampleCount)
                case .recording(let samples): try pipeline.appendRecording(samples)
                case .commit(let sample): try pipeline.commit(throughSample: sample)
                }
            }
            try checkCancellation(queue)
            try pipeline.finish()
            try checkCancellation(queue)
            output.yield(.finished)
        } catch let error as EngineError {
            output.yield(.failed(queue.isCancelled ? EngineError(.cancelled, "Recognition was cancelled.") : error))
        } catch {
            output.yield(.failed(EngineError(.internalInconsistency, "Streaming recognition failed.", underlying: error)))
        }
        output.finish()
    }

    private static func checkCancellation(_ queue: CommandQueue) throws {
        if queue.isCancelled { throw EngineError(.cancelled, "Recognition was cancelled.") }
    }
}

/// The verbs callers sent, in order, between callers and the worker thread.
private final class CommandQueue: @unchecked Sendable {
    // @unchecked: all state is behind `condition`.

    enum Command {
        case audio([Float])
        case gap(Int)
        case recording([Float])
        case commit(Int)
    }

    /// Flags the pipeline's passes watch.
    struct Interruptions {
        /// Raised when the input closes (volatile passes stop).
        let volatile = Interruption()
        /// Raised on cancellation (every pass stops).
        let cancellation = Interruption()
    }

    let interruptions = Interruptions()
    private let condition = NSCondition()
    private var commands: [Command] = []
    private var head = 0
    private var closed = false
    private var cancelled = false
    private var pendingSamples = 0

    func push(_ command: Command, sampleCount: Int = 0) {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return }
        commands.append(command)
        pendingSamples += sampleCount
        condition.signal()
    }

    /// The next command, waiting for one; nil once closed and drained (or cancelled).
    func next() -> Command? {
        condition.lock()
        defer { condition.unlock() }
        while head == commands.count, !closed, !cancelled { condition.wait() }
        guard !cancelled, head < commands.count else { return nil }
        let command = commands[head]
        head += 1
        if head > 64, head * 2 > commands.count {
            commands.removeFirst(head)
            head = 0
        }
        return command
    }

    func consumed(_ count: Int) {
        condition.lock()
        pendingSamples -= count
        condition.unlock()
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
        interruptions.volatile.raise()
    }

    func cancel() {
        condition.lock()
        closed = true
        cancelled = true
        commands = []
        head = 0
        condition.broadcast()
        condition.unlock()
        interruptions.volatile.raise()
        interruptions.cancellation.raise()
    }

    var isCancelled: Bool { condition.lock(); defer { condition.unlock() }; return cancelled }
    var pendingSampleCount: Int { condition.lock(); defer { condition.unlock() }; return pendingSamples }
}
