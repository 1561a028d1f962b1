import Foundation

/// Where a live stream's compute went, by kind of pass: how many passes,
/// over how much audio, and their wall and process CPU time; plus the stage
/// times (encoder, decoder steps, …) of each model's passes.
///
/// Give one to `StreamingRecognizer` and read it after the stream ends:
/// `speech bench --stream` prints it, so the cost of live results can be
/// taken apart (issue 14, goal 3) without timing code in the benchmark.
public final class StreamingWorkload: @unchecked Sendable {
    // @unchecked: `tallies` is behind `lock`; the stage clocks lock themselves.

    /// Why the pipeline decoded.
    public enum Pass: String, Sendable, CaseIterable, Codable {
        /// A quick greedy pass with the fast model for volatile text.
        case volatile
        /// The accurate pass at a pause: the final if the utterance ends
        /// there, the draft of the next pass if the speaker goes on.
        case pause
        /// An accurate pass that commits (an endpoint, the buffer limit,
        /// `commit(throughSeconds:)`, the end of input) and had no pass at
        /// a pause to reuse.
        case commit
        /// A recording decoded as a file (`appendRecording`).
        case recording
    }

    /// One kind of pass, summed.
    public struct Tally: Sendable, Hashable, Codable {
        public var passes = 0
        /// Audio handed to the passes (each pass counts its whole buffer).
        public var audioSeconds = 0.0
        public var wallSeconds = 0.0
        /// Process CPU time while the passes ran (every thread's).
        public var cpuSeconds = 0.0

        public init() {}
    }

    /// Stage times of the accurate model's passes (pause, commit, recording).
    public let accurateStages = StageClock()
    /// Stage times of the fast model's passes (volatile).
    public let fastStages = StageClock()

    private let lock = NSLock()
    private var totals: [Pass: Tally] = [:]

    public init() {}

    /// The tallies so far; kinds that never ran are absent.
    public var tallies: [Pass: Tally] {
        lock.lock()
        defer { lock.unlock() }
        return totals
    }

    /// Runs `body` as one pass of `pass` over `sampleCount` samples and adds
    /// its times, also when it throws (an interrupted pass cost its time too).
    func measure<T>(_ pass: Pass, sampleCount: Int, _ body: () throws -> T) rethrows -> T {
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = Self.processCPUSeconds()
        defer {
            let wall = clock.now - start
            let cpu = Self.processCPUSeconds() - cpuStart
            lock.lock()
            var tally = totals[pass] ?? Tally()
            tally.passes += 1
            tally.audioSeconds += Double(sampleCount) / Transcriber.sampleRate
            tally.wallSeconds += Double(wall.components.seconds) + Double(wall.components.attoseconds) * 1e-18
            tally.cpuSeconds += cpu
            totals[pass] = tally
            lock.unlock()
        }
        return try body()
    }

    /// CPU time of the whole process (all threads: the compute threads do the passes' work).
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}

extension Optional where Wrapped == StreamingWorkload {
    /// Measures through the workload when there is one.
    func measure<T>(_ pass: StreamingWorkload.Pass, sampleCount: Int, _ body: () throws -> T) rethrows -> T {
        switch self {
        case .some(let workload): try workload.measure(pass, sampleCount: sampleCount, body)
        case .none: try body()
        }
    }
}
