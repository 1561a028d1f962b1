import Foundation
import SpeechEngine

/// Feeds samples to a `StreamingRecognizer` in 100 ms chunks and collects
/// what it reports. `speech bench --stream` and `speech eval --stream` both
/// use it, so the committed text eval scores is the one bench measures.
struct StreamFeeder {
    /// How chunks are paced.
    enum Pacing: String, Sendable {
        /// One chunk per 100 ms of wall time, as a microphone delivers them.
        case realtime
        /// As fast as the recognizer takes them. A recognizer behind real time
        /// skips volatile passes and the passes they gate (at a pause), so
        /// this measures the finals' throughput, not what a live user gets.
        case fast
        /// Each chunk once the recognizer has consumed the last: every pass a
        /// live stream runs runs, as on a machine that keeps up with real
        /// time, and the result does not depend on the machine's speed.
        case stepped
    }

    static let chunkSampleCount = 1_600
    /// The end of the input kept for the benchmark's reference decode (goal 3:
    /// the final may take no longer than decoding the last 2 s of audio).
    static let tailSampleCount = 2 * Int(Transcriber.sampleRate)

    /// In fast mode, at most this much audio waits in the recognizer's queue.
    /// Queueing a whole file at once would hold a second copy of it in small
    /// chunks, and an hour of those would dominate (and, once freed, mask) the
    /// recognizer's own memory. 30 s keeps the queue well above the 0.3 s at
    /// which the recognizer stops skipping volatile passes, so fast mode still
    /// measures throughput of the final passes.
    static let fastLookAheadSamples = 30 * Int(Transcriber.sampleRate)

    /// Where the audio comes from.
    enum Source: Sendable {
        /// Samples already in memory (16 kHz mono).
        case samples([Float])
        /// A file read block by block while it is fed (`AudioFileReader`), so an
        /// hour-long stream never holds the hour: what the benchmark measures is
        /// what a live stream costs, not the copy of its input.
        case file(URL)
    }

    var pacing: Pacing
    /// Audio seconds between RSS measurements, or nil for none.
    var residentSampleIntervalSeconds: Double?

    /// What one stream reported, with the wall-clock instants of its events.
    struct Outcome: Sendable {
        var finals: [StreamingHypothesis] = []
        /// When each final arrived, seconds after `start`.
        var finalSeconds: [Double] = []
        /// Audio final when `finish()` was called (the last `.committed` before it), seconds.
        var committedAtEndOfInputSeconds = 0.0
        /// Every volatile result, with when it arrived.
        var volatiles: [WordLatency.Shown] = []
        var volatileCount = 0
        /// Audio time at which speech was first detected.
        var speechOnsetSeconds: Double?
        var start: ContinuousClock.Instant
        var firstVolatile: ContinuousClock.Instant?
        /// Every volatile and final result, in order.
        var resultTimes: [ContinuousClock.Instant] = []
        /// The last final result (`start` if there was none).
        var lastFinal: ContinuousClock.Instant
        /// When `finish()` was called: all audio was handed over.
        var endOfInput: ContinuousClock.Instant
        /// When the recognizer reported `.finished`.
        var end: ContinuousClock.Instant
        var residentTimeline: ResidentTimeline?
        /// Each final with the last volatile result before it (the text a
        /// live user saw just before it was replaced), where there was one.
        var volatileBeforeFinal: [(volatile: String, final: String)] = []
        /// Process CPU seconds from the start to `.finished`.
        var cpuSeconds = 0.0
        /// Seconds of audio fed.
        var audioSeconds = 0.0
        /// The last `tailSampleCount` samples fed (all of them when fewer).
        var tailSamples: [Float] = []

        /// The committed transcript: every final result's text, in order.
        var committedText: String { finals.map(\.text).joined(separator: " ") }

        var wallSeconds: Double { (end - start).seconds }
    }

    /// Polls until fewer than `limit` samples wait in the recognizer's queue
    /// (fast pacing: its look-ahead; stepped: 1, all consumed).
    private static func wait(until recognizer: StreamingRecognizer, holdsFewerThan limit: Int,
                             polling interval: Duration) async {
        while recognizer.pendingSampleCount >= limit, !Task.isCancelled {
            try? await Task.sleep(for: interval)
        }
    }

    /// Streams `samples` through `recognizer` and waits for `.finished`.
    /// - Throws: the `EngineError` of a `.failed` event.
    func run(_ samples: [Float], through recognizer: StreamingRecognizer) async throws -> Outcome {
        try await run(.samples(samples), through: recognizer)
    }

    /// Streams `source` through `recognizer` and waits for `.finished`.
    /// - Throws: the `EngineError` of a `.failed` event, or the file's read error.
    func run(_ source: Source, through recognizer: StreamingRecognizer) async throws -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        var outcome = Outcome(start: start, lastFinal: start, endOfInput: start, end: start)
        let cpuAtStart = ResourceUsage.cpuSeconds()
        var lastVolatile: String?
        var watermarks: [(at: ContinuousClock.Instant, throughSeconds: Double)] = []
        outcome.residentTimeline = residentSampleIntervalSeconds.map(ResidentTimeline.init(intervalSeconds:))
        outcome.residentTimeline?.recordIfDue(Self.measure(audioSeconds: 0, since: start), atAudioSeconds: 0)
        let pacing = self.pacing
        let feeder = Task {
            var fedCount = 0
            var chunkIndex = 0
            var tail: [Float] = []
            do {
                var chunks = try ChunkReader(source)
                while !Task.isCancelled, let chunk = try chunks.next() {
                    switch pacing {
                    case .stepped: await Self.wait(until: recognizer, holdsFewerThan: 1, polling: .milliseconds(1))
                    case .fast:
                        // Polling is enough: a commit pass takes far longer than one sleep.
                        await Self.wait(until: recognizer, holdsFewerThan: Self.fastLookAheadSamples,
                                        polling: .milliseconds(5))
                    case .realtime: break
                    }
                    recognizer.append(chunk)
                    fedCount += chunk.count
                    tail += chunk
                    if tail.count >= 2 * Self.tailSampleCount { tail.removeFirst(tail.count - Self.tailSampleCount) }
                    chunkIndex += 1
                    if pacing == .realtime { try? await clock.sleep(until: start + .milliseconds(100 * chunkIndex)) }
                }
            } catch {
                // The file could not be opened or failed part-way: stop the stream so the
                // event loop below ends, and report the file's error.
                recognizer.cancel()
                throw error
            }
            // The last chunk's passes run before the input closes, as for every other chunk.
            if pacing == .stepped { await Self.wait(until: recognizer, holdsFewerThan: 1, polling: .milliseconds(1)) }
            recognizer.finish()
            return (endOfInput: clock.now, sampleCount: fedCount, tail: Array(tail.suffix(Self.tailSampleCount)))
        }
        // A failed recognizer stops taking audio; without this the fast feeder would wait on it forever.
        defer { feeder.cancel() }
        for await event in recognizer.events {
            switch event {
            case .speechDetected(let at):
                if outcome.speechOnsetSeconds == nil { outcome.speechOnsetSeconds = at }
            case .volatile(let hypothesis):
                lastVolatile = hypothesis.text
                outcome.volatileCount += 1
                outcome.volatiles.append(WordLatency.Shown(atSeconds: (clock.now - start).seconds, text: hypothesis.text,
                                                           finalsBefore: outcome.finals.count))
                if outcome.firstVolatile == nil { outcome.firstVolatile = clock.now }
                outcome.resultTimes.append(clock.now)
            case .final(let hypothesis):
                outcome.finals.append(hypothesis)
                outcome.finalSeconds.append((clock.now - start).seconds)
                if let volatile = lastVolatile { outcome.volatileBeforeFinal.append((volatile, hypothesis.text)) }
                lastVolatile = nil
                outcome.lastFinal = clock.now
                outcome.resultTimes.append(clock.now)
            case .progress(let processed):
                outcome.residentTimeline?.recordIfDue(Self.measure(audioSeconds: processed, since: start),
                                                      atAudioSeconds: processed)
            case .failed(let error):
                recognizer.cancel()
                feeder.cancel()
                // A file that could not be read is why the stream stopped: report that, not the cancellation.
                if case .failure(let readError) = await feeder.result { throw readError }
                throw error
            case .committed(let through):
                watermarks.append((clock.now, through))
            case .speechEnded, .finished: break
            }
        }
        let fed = try await feeder.value
        outcome.endOfInput = fed.endOfInput
        outcome.audioSeconds = Double(fed.sampleCount) / AudioDecoder.sampleRate
        outcome.tailSamples = fed.tail
        outcome.committedAtEndOfInputSeconds = watermarks.last { $0.at <= outcome.endOfInput }?.throughSeconds ?? 0
        outcome.end = clock.now
        outcome.cpuSeconds = ResourceUsage.cpuSeconds() - cpuAtStart
        outcome.residentTimeline?.recordEnd(Self.measure(audioSeconds: outcome.audioSeconds, since: start))
        return outcome
    }

    private static func measure(audioSeconds: Double, since start: ContinuousClock.Instant) -> ResidentTimeline.Point {
        let megabyte = 1_048_576.0
        let peak = Double(ResourceUsage.peakResidentBytes()) / megabyte
        return ResidentTimeline.Point(
            audioSeconds: audioSeconds, wallSeconds: (ContinuousClock.now - start).seconds,
            residentMegabytes: ResourceUsage.currentResidentBytes().map { Double($0) / megabyte } ?? peak,
            peakResidentMegabytes: peak)
    }

    /// Cuts the source into 100 ms chunks: samples in memory as they are, a
    /// file as its reader delivers blocks (only the part not yet fed is kept).
    struct ChunkReader {
        private var pending: [Float]
        private var offset = 0
        private let reader: AudioFileReader?

        init(_ source: Source) throws {
            switch source {
            case .samples(let samples):
                pending = samples
                reader = nil
            case .file(let url):
                pending = []
                reader = try AudioFileReader(contentsOf: url)
            }
        }

        mutating func next() throws -> [Float]? {
            while let reader, pending.count - offset < StreamFeeder.chunkSampleCount, let block = try reader.nextBlock() {
                pending.removeFirst(offset)
                offset = 0
                pending.append(contentsOf: block)
            }
            guard offset < pending.count else { return nil }
            defer { offset += StreamFeeder.chunkSampleCount }
            return Array(pending[offset..<min(pending.count, offset + StreamFeeder.chunkSampleCount)])
        }
    }
}
