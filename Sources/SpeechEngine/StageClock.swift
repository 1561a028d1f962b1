import Foundation

/// Accumulates wall time per pipeline stage (mel, encode, decode, align),
/// passed into a transcription so that `--verbose` and the benchmarks can
/// say where time goes without timing code in the data path.
///
/// Stages nest: `decode` is the whole of decoding (every temperature tried),
/// and the `decode.*` stages split it into the prompt's forward pass, the
/// per-token forward passes, the logits projection and the search's own
/// bookkeeping (filters, log-softmax, beam ranking, cache reordering). Each
/// stage also counts how often it ran, so a per-token cost can be read off.
public final class StageClock: @unchecked Sendable {
    /// The stages the transcriber reports.
    public enum Stage: String, Sendable, CaseIterable {
        /// Speech-activity detection over the whole audio (which windows or chunks to decode).
        case speechDetection = "vad"
        case melSpectrogram = "mel"
        /// The audio encoder (convolutions and transformer blocks).
        case encoder = "encode"
        /// Projecting the encoder output into every layer's cross-attention keys and values.
        case crossAttentionCache = "cross-kv"
        /// Language detection (one decoder pass on the first window when the language is not given).
        case languageDetection = "language"
        /// All of decoding, the sub-stages below included.
        case decoder = "decode"
        /// Decoder forward pass over the prompt (before the first sampled token), logits excluded.
        case decoderPrompt = "decode.prompt"
        /// Decoder forward passes of one new token per sequence, logits excluded.
        case decoderStep = "decode.step"
        /// Final layer norm and the projection onto the vocabulary.
        case logits = "decode.logits"
        /// Logit filters, log-softmax, greedy/beam choice and self-attention cache reordering.
        case search = "decode.search"
        /// Tokens a greedy pass took from its prefill's speculated rows
        /// instead of a decoder step (`DecodingLoop.speculation`); counted, not timed.
        case speculatedToken = "decode.speculated"
        /// Word timing: the alignment pass over the cross-attention heads and the DTW.
        case wordAlignment = "align"
    }

    private let lock = NSLock()
    private var totals: [Stage: Duration] = [:]
    private var calls: [Stage: Int] = [:]
    private let clock = ContinuousClock()

    public init() {}

    /// Runs `body`, adding its duration to `stage` and counting the call.
    @discardableResult
    public func measure<T>(_ stage: Stage, _ body: () throws -> T) rethrows -> T {
        let start = clock.now
        defer {
            let elapsed = clock.now - start
            lock.lock()
            totals[stage, default: .zero] += elapsed
            calls[stage, default: 0] += 1
            lock.unlock()
        }
        return try body()
    }

    /// Counts one occurrence of `stage` without time (`speculatedToken`).
    public func count(_ stage: Stage) {
        lock.lock()
        // A zero total, so that `seconds` lists the stage and reports show its row.
        totals[stage, default: .zero] += .zero
        calls[stage, default: 0] += 1
        lock.unlock()
    }

    /// Seconds spent in each stage so far.
    public var seconds: [Stage: Double] {
        lock.lock()
        defer { lock.unlock() }
        return totals.mapValues { Double($0.components.seconds) + Double($0.components.attoseconds) * 1e-18 }
    }

    /// How many times each stage was measured so far (decoder steps, windows encoded, …).
    public var counts: [Stage: Int] {
        lock.lock()
        defer { lock.unlock() }
        return calls
    }
}

extension Optional where Wrapped == StageClock {
    /// Measures through the clock when there is one.
    func measure<T>(_ stage: StageClock.Stage, _ body: () throws -> T) rethrows -> T {
        switch self {
        case .some(let clock): try clock.measure(stage, body)
        case .none: try body()
        }
    }
}
