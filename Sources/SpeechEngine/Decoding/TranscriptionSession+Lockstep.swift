/// Decoding several windows in lockstep: one decoder pass per step for every
/// sequence of every window still decoding (windows x beams rows), each window
/// with its own caches, filters, temperature fallback and random generator.
extension TranscriptionSession {
    /// Decodes each window of `crosses` without previous-text prompting, as
    /// `decodeWithFallback` decodes one window alone.
    ///
    /// Fallback runs in rounds: every window is decoded at the first
    /// temperature together; those that fail the thresholds are decoded at
    /// the next temperature together, and so on. A window's result does not
    /// depend on which windows share its batch: its sampling draws come from
    /// its own generator, seeded by `seeds` (the window's index in the file).
    mutating func decodeInLockstep(crosses: [CrossAttentionCache], seeds: [UInt64]) -> [DecodingResult] {
        precondition(crosses.count == seeds.count, "one seed per window")
        let startOfTranscript = startOfTranscriptSequence()
        var generators = seeds.map { SeededGenerator(seed: 0x5EED &+ $0) }
        var attempts = [[DecodingResult]](repeating: [], count: crosses.count)
        var results = [DecodingResult?](repeating: nil, count: crosses.count)
        var pending = Array(crosses.indices)
        for temperature in options.temperatures where !pending.isEmpty {
            let loops = pending.map { decodingLoop(cross: crosses[$0], startOfTranscript: startOfTranscript, context: []) }
            var roundGenerators = pending.map { generators[$0] }
            let outcomes = clock.measure(.decoder) {
                Self.runInLockstep(loops, temperature: temperature, generators: &roundGenerators, model: model, clock: clock)
            }
            for (k, window) in pending.enumerated() {
                generators[window] = roundGenerators[k]
                attempts[window].append(outcomes[k])
                if interruption.stopsDecoding || !needsFallback(outcomes[k]) { results[window] = outcomes[k] }
            }
            pending.removeAll { results[$0] != nil }
        }
        for window in pending { results[window] = Self.bestAttempt(attempts[window], options: options) }
        return results.map { $0! }
    }

    /// Runs `loops` (one per window, all with the same prompt) at one
    /// temperature with one batched decoder pass per step.
    static func runInLockstep(_ loops: [DecodingLoop], temperature: Double, generators: inout [SeededGenerator],
                              model: WhisperModel, clock: StageClock?) -> [DecodingResult] {
        guard let first = loops.first else { return [] }
        precondition(loops.allSatisfy { $0.prompt == first.prompt }, "windows decoded in lockstep share one prompt")
        var runs = loops.map { DecodingLoop.Run(loop: $0, temperature: temperature) }
        var caches = loops.map { _ in model.decoder.makeSelfAttentionCache(sequenceCount: 1) }
        let crosses = loops.map(\.cross)
        let prefill = model.decoder.decode(batch: loops.map { [$0.prompt] }, groups: Array(loops.indices),
                                           caches: &caches, crosses: crosses,
                                           logitPositions: runs[0].prefillPositions,
                                           screenedLogits: temperature == 0, clock: clock)
        for i in runs.indices { runs[i].begin(prefillLogits: prefill[i], cache: &caches[i]) }
        while true {
            for i in runs.indices where !runs[i].isFinished {
                runs[i].advance(generator: &generators[i], cache: &caches[i])
                // A finished window's cache (up to 27 MB with five beams) is not needed for its result.
                if runs[i].isFinished { caches[i] = model.decoder.makeSelfAttentionCache(sequenceCount: 0) }
            }
            let active = runs.indices.filter { !runs[$0].isFinished }
            if active.isEmpty { break }
            let logits = model.decoder.decode(batch: active.map { runs[$0].nextTokens }, groups: active,
                                              caches: &caches, crosses: crosses, logitPositions: nil,
                                              screenedLogits: temperature == 0, clock: clock)
            for (k, i) in active.enumerated() { runs[i].logits = logits[k] }
        }
        return runs.map { $0.result() }
    }
}
