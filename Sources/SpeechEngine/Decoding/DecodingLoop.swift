import Foundation

/// Decodes one window at one temperature: prefill, then step / filter /
/// sample until every sequence ends, then rank.
/// ref: whisper/decoding.py `DecodingTask.run`, `_main_loop`
struct DecodingLoop {
    let model: WhisperModel
    let cross: CrossAttentionCache
    /// Full prompt: optional `<|startofprev|>` context, the start-of-transcript
    /// sequence, then any forced tokens (`forcedTokenCount`).
    let prompt: [Int]
    /// Index of `<|startoftranscript|>` in `prompt` (for the no-speech probability).
    let startOfTranscriptIndex: Int
    let filters: [LogitFilter]
    let beamSize: Int
    let bestOf: Int
    let lengthPenalty: Double?
    /// At most this many tokens are sampled (ref: `sample_len = n_text_ctx // 2`).
    let maximumSampleCount: Int
    /// Stops the loop between steps (with task cancellation).
    var interruption: Interruption? = nil
    /// The prompt's last tokens that are text already decoded, not context:
    /// an earlier pass's segments over the start of the same audio
    /// (`TranscriptionOptions.forcedSegments`). They are part of the result and
    /// the timestamp rules read them as sampled, but they are not scored and
    /// count toward the sample limit.
    var forcedTokenCount = 0
    /// Tokens a greedy run expects to pick first (an earlier pass's over
    /// most of the same audio): checked in the prefill, one decoder pass for
    /// all, instead of decoded one by one. The run picks what it picks
    /// without them, to the rounding of a longer product (a near tie can go
    /// the other way: one volatile result in 57 in `StreamingPipelineModelTests`).
    var speculation: [Int] = []

    /// Where the result's tokens start in every sequence: the forced tokens are the result's first.
    var sampleBegin: Int { prompt.count - forcedTokenCount }

    var endOfText: Int { model.tokenizer.specialTokens.endOfText }

    /// Stage timing of the decoder passes and the search (`decode.*`).
    var clock: StageClock? = nil

    /// Decodes the window alone: prefill, then one decoder pass per step.
    ///
    /// A greedy run with a `speculation` reads the speculated tokens in the
    /// prefill too, with the logits after each: while the token the run
    /// picks from a row is the next speculated one, the row after it is
    /// already there and no decoder pass is needed; at the first difference
    /// the cache drops the speculated positions after the picked token's and
    /// decoding goes on step by step. The tokens are the ones the run would
    /// pick without it (up to the rounding of a longer product).
    func run(temperature: Double, generator: inout some RandomNumberGenerator) -> DecodingResult {
        var run = Run(loop: self, temperature: temperature)
        var cache = model.decoder.makeSelfAttentionCache(sequenceCount: 1)
        var noCapture: TextDecoder.AlignmentCapture?
        // Greedy and beam choices read the logits near each row's best;
        // sampling at a temperature reads them all.
        let screened = temperature == 0
        let speculated = run.sequenceCount == 1 && temperature == 0
            ? Array(speculation.prefix(min(run.limit, model.dimensions.textContext - prompt.count))) : []
        let input = prompt + speculated
        let prefill = model.decoder.decode([input], cache: &cache, cross: cross,
                                           logitPositions: run.prefillPositions + Array(prompt.count..<input.count),
                                           capture: &noCapture, screenedLogits: screened, clock: clock)
        run.begin(prefillLogits: prefill, cache: &cache)
        let vocabulary = model.dimensions.vocabularySize
        // Speculated tokens the run picked so far; nil once it picked another.
        var confirmed: Int? = speculated.isEmpty ? nil : 0
        while !run.isFinished {
            run.advance(generator: &generator, cache: &cache)
            if run.isFinished { break }
            if let count = confirmed {
                if run.sequences[0].last == speculated[count] {
                    // Prefill rows: the prompt's (`prefillPositions`), then one per speculated token.
                    let row = run.prefillPositions.count + count
                    run.logits = Array(prefill[(row * vocabulary)..<((row + 1) * vocabulary)])
                    confirmed = count + 1 < speculated.count ? count + 1 : nil
                    clock?.count(.speculatedToken)
                    continue
                }
                cache.length = prompt.count + count
                confirmed = nil
            }
            run.logits = model.decoder.decode(run.nextTokens, cache: &cache, cross: cross, logitPositions: nil,
                                              capture: &noCapture, screenedLogits: screened, clock: clock)
        }
        return run.result()
    }

    /// Applies the filters to each sequence's row of `logits` (in place) and
    /// returns each row's log Σ exp: a token's log-probability is its logit
    /// less its row's (the search takes it for the few tokens it reads).
    func filterLogits(_ logits: inout [Float], sequences: [[Int]]) -> [Float] {
        let vocabulary = model.dimensions.vocabularySize
        precondition(logits.count >= sequences.count * vocabulary, "filterLogits shape")
        return logits.withUnsafeMutableBufferPointer { all in
            sequences.enumerated().map { s, sequence in
                let row = UnsafeMutableBufferPointer(rebasing: all[(s * vocabulary)..<((s + 1) * vocabulary)])
                for filter in filters { filter.apply(row, sequence, sampleBegin) }
                return VectorMath.logSumExp(row.baseAddress!, count: vocabulary)
            }
        }
    }

    /// Picks the best finished sequence by length-normalised log-probability.
    /// ref: whisper/decoding.py `MaximumLikelihoodRanker`
    func rank(_ candidates: [(tokens: [Int], sumLogProbability: Double)], noSpeechProbability: Double,
                      temperature: Double) -> DecodingResult {
        let scored = candidates.map { candidate -> (tokens: [Int], sum: Double, score: Double, sampledCount: Double) in
            var tokens = Array(candidate.tokens.dropFirst(sampleBegin))
            if let end = tokens.firstIndex(of: endOfText) { tokens.removeSubrange(end...) }
            // Scores are over the sampled tokens: the forced ones were scored by the pass that sampled them.
            let length = Double(tokens.count - forcedTokenCount)
            let penalty = lengthPenalty.map { pow((5 + length) / 6, $0) } ?? length
            return (tokens, candidate.sumLogProbability, candidate.sumLogProbability / max(penalty, 1), length)
        }.sorted { $0.score > $1.score }
        // No candidate at all (every beam's logits non-finite): an empty, improbable result.
        guard let best = scored.first else {
            return DecodingResult(tokens: [], sumLogProbability: -.infinity, averageLogProbability: -.infinity,
                                  noSpeechProbability: noSpeechProbability, temperature: temperature,
                                  compressionRatio: 0, alternatives: [])
        }
        // ref: decoding.py 757, 784: the ratio is taken on the stripped text.
        let text = model.tokenizer.decode(best.tokens).trimmingCharacters(in: .whitespacesAndNewlines)
        var seen: Set<[Int]> = [best.tokens]
        var alternatives: [(tokens: [Int], score: Double)] = []
        for candidate in scored.dropFirst() where seen.insert(candidate.tokens).inserted {
            alternatives.append((candidate.tokens, candidate.score))
        }
        return DecodingResult(tokens: best.tokens, sumLogProbability: best.sum,
                              averageLogProbability: best.sum / (best.sampledCount + 1),
                              noSpeechProbability: noSpeechProbability, temperature: temperature,
                              compressionRatio: CompressionRatio.of(text), alternatives: alternatives)
    }

    static func argmax(_ values: [Float], from start: Int, count: Int) -> Int {
        var best = 0
        var bestValue = -Float.infinity
        for i in 0..<count where values[start + i] > bestValue {
            bestValue = values[start + i]
            best = i
        }
        return best
    }

    static func sample(_ logits: [Float], from start: Int, count: Int, temperature: Double,
                       generator: inout some RandomNumberGenerator) -> Int {
        var maxValue = -Float.infinity
        for i in 0..<count where logits[start + i] > maxValue { maxValue = logits[start + i] }
        var weights = [Double](repeating: 0, count: count)
        var total = 0.0
        for i in 0..<count where logits[start + i] > -.infinity {
            let w = exp(Double(logits[start + i] - maxValue) / temperature)
            weights[i] = w
            total += w
        }
        // Every token suppressed, or logits gone non-finite: nothing to sample from.
        guard total > 0, total.isFinite else { return argmax(logits, from: start, count: count) }
        var target = Double.random(in: 0..<total, using: &generator)
        for i in 0..<count where weights[i] > 0 {
            target -= weights[i]
            if target <= 0 { return i }
        }
        return argmax(logits, from: start, count: count)
    }
}
