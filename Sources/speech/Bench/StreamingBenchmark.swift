import Foundation
import SpeechEngine
import SpeechEvaluation

/// `speech bench --stream`: feeds a file to the streaming recognizer in
/// 100 ms chunks, paced to real time or as fast as possible, and measures
/// what a live user sees.
struct StreamingBenchmark {
    var samples: [Float]
    var realtime: Bool
    var options: StreamingOptions
    var accurate: Transcriber
    var fast: Transcriber?

    static let chunkSampleCount = 1_600

    /// What one streaming run measured. Latencies are wall-clock seconds.
    struct Result: Encodable, Sendable {
        var mode: String
        var audioSeconds: Double
        /// Audio time at which speech was first detected.
        var speechOnsetSeconds: Double?
        /// From the moment the onset audio was fed to the first volatile result (realtime mode).
        var firstVolatileAfterOnsetSeconds: Double?
        /// Between successive results (volatile or final) while speech goes on.
        var updateInterval: TimingSummary
        /// From `finish()` (end of input) to the last final result.
        var finalAfterEndOfInputSeconds: Double
        var realTimeFactor: Double
        var peakResidentMegabytes: Double
        var volatileCount: Int
        var finalCount: Int
        var committedText: String
        var batchText: String
        /// WER of the committed stream against the batch transcript of the same audio.
        var committedVersusBatchWER: Double
    }

    func run() async throws -> Result {
        let recognizer = StreamingRecognizer(accurate: accurate, fast: fast, options: options)
        let clock = ContinuousClock()
        let start = clock.now
        let samples = self.samples
        let realtime = self.realtime
        let feeder = Task {
            var offset = 0
            var chunkIndex = 0
            while offset < samples.count {
                recognizer.append(Array(samples[offset..<min(samples.count, offset + Self.chunkSampleCount)]))
                offset += Self.chunkSampleCount
                chunkIndex += 1
                if realtime { try? await clock.sleep(until: start + .milliseconds(100 * chunkIndex)) }
            }
            recognizer.finish()
            return clock.now
        }
        var onset: Double?
        var firstVolatile: ContinuousClock.Instant?
        var resultTimes: [ContinuousClock.Instant] = []
        var lastFinal = start
        var finals: [String] = []
        var volatileCount = 0
        for await event in recognizer.events {
            switch event {
            case .speechDetected(let at): if onset == nil { onset = at }
            case .volatile:
                volatileCount += 1
                if firstVolatile == nil { firstVolatile = clock.now }
                resultTimes.append(clock.now)
            case .final(let hypothesis):
                finals.append(hypothesis.text)
                lastFinal = clock.now
                resultTimes.append(clock.now)
            case .failed(let error): throw error
            case .progress, .limitReached, .finished: break
            }
        }
        let endOfInput = await feeder.value
        let total = (clock.now - start).seconds
        let audioSeconds = Double(samples.count) / AudioDecoder.sampleRate
        // In realtime mode audio time t was fed at wall time start + t.
        var firstVolatileLatency: Double?
        if realtime, let firstVolatile, let onset { firstVolatileLatency = (firstVolatile - start).seconds - onset }
        let intervals = zip(resultTimes, resultTimes.dropFirst()).map { ($1 - $0).seconds }
        let batch = try accurate.transcribe(samples: samples, options: options.transcription).text
        let committed = finals.joined(separator: " ")
        let wer = TranscriptScorer().score(reference: batch, hypothesis: committed,
                                           languageTag: options.transcription.language ?? "en").counts.rate
        return Result(
            mode: realtime ? "realtime" : "fast", audioSeconds: audioSeconds, speechOnsetSeconds: onset,
            firstVolatileAfterOnsetSeconds: firstVolatileLatency,
            updateInterval: TimingSummary(runs: intervals),
            finalAfterEndOfInputSeconds: max(0, (lastFinal - endOfInput).seconds),
            realTimeFactor: total / max(audioSeconds, 1e-9),
            peakResidentMegabytes: Double(ResourceUsage.peakResidentBytes()) / 1_048_576,
            volatileCount: volatileCount, finalCount: finals.count, committedText: committed, batchText: batch,
            committedVersusBatchWER: wer)
    }

    static func table(_ result: Result) -> String {
        func seconds(_ value: Double?) -> String { value.map { String(format: "%.3f s", $0) } ?? "n/a" }
        return """
        mode                      \(result.mode) (100 ms chunks)
        audio                     \(String(format: "%.2f s", result.audioSeconds))
        speech onset              \(seconds(result.speechOnsetSeconds))
        first volatile after onset \(seconds(result.firstVolatileAfterOnsetSeconds))
        update interval median    \(seconds(result.updateInterval.median)) (\(result.volatileCount) volatile, \(result.finalCount) final)
        final after end of input  \(seconds(result.finalAfterEndOfInputSeconds))
        real-time factor          \(String(format: "%.3f", result.realTimeFactor))
        peak RSS                  \(String(format: "%.1f MB", result.peakResidentMegabytes))
        committed vs batch WER    \(String(format: "%.2f%%", result.committedVersusBatchWER * 100))

        """
    }
}
