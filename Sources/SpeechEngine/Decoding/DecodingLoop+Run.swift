import Foundation

extension DecodingLoop {
    /// One window's decoding at one temperature as a step machine, so that
    /// the same bookkeeping serves a window decoded alone (`DecodingLoop.run`)
    /// and windows decoded in lockstep (`BatchedDecoding`): the owner runs the
    /// decoder passes, the run picks tokens and says which beam continues which.
    ///
    /// Protocol: decode `prompt` at `prefillPositions` over a one-sequence
    /// cache, `begin`, then repeat `advance` and, while not `isFinished`,
    /// decode `nextTokens` into `logits`; finally `result()`.
    struct Run {
        let loop: DecodingLoop
        let temperature: Double
        /// Sequences decoded side by side: beams at temperature 0, else `bestOf` samples.
        let sequenceCount: Int
        /// The sequences so far, prompt included.
        private(set) var sequences: [[Int]]
        /// Logits of the last position of every sequence, `[sequenceCount, vocabularySize]`.
        var logits: [Float] = []
        private(set) var isFinished = false
        private var noSpeechProbability = 0.0
        private var search: BeamSearch?
        private var sums: [Double]
        private var finished: [Bool]
        private var stepCount = 0
        /// Tokens the run may pick.
        let limit: Int

        init(loop: DecodingLoop, temperature: Double) {
            self.loop = loop
            self.temperature = temperature
            sequenceCount = temperature == 0 ? loop.beamSize : loop.bestOf
            sequences = Array(repeating: loop.prompt, count: sequenceCount)
            search = temperature == 0 && loop.beamSize > 1
                ? BeamSearch(beamSize: loop.beamSize, endOfText: loop.endOfText) : nil
            sums = Array(repeating: 0, count: sequenceCount)
            finished = Array(repeating: false, count: sequenceCount)
            limit = min(loop.maximumSampleCount - loop.forcedTokenCount,
                        loop.model.dimensions.textContext - loop.prompt.count)
        }

        /// The prompt positions whose logits the prefill must return: the
        /// start of transcript (no-speech probability) and the last token.
        var prefillPositions: [Int] { [loop.startOfTranscriptIndex, loop.prompt.count - 1] }

        /// The last token of every sequence, the next decoder input.
        var nextTokens: [[Int]] { sequences.map { [$0.last!] } }

        /// Takes the prefill's logits and fans the one-sequence cache out to every sequence.
        mutating func begin(prefillLogits prefill: [Float], cache: inout SelfAttentionCache) {
            let vocabulary = loop.model.dimensions.vocabularySize
            noSpeechProbability = prefill.withUnsafeBufferPointer { logits in
                let lp = LogProbabilities.logSoftmax(UnsafeBufferPointer(rebasing: logits[0..<vocabulary]))
                return Double(expf(lp[loop.model.tokenizer.specialTokens.noSpeech]))
            }
            let first = prefill[vocabulary..<(2 * vocabulary)]
            logits = Array(repeating: first, count: sequenceCount).flatMap { $0 }
            cache.reorder(Array(repeating: 0, count: sequenceCount))
            isFinished = limit <= 0
        }

        /// Picks each sequence's next token from `logits` and reorders `cache`
        /// to match (beam search keeps, drops and duplicates beams).
        mutating func advance(generator: inout some RandomNumberGenerator, cache: inout SelfAttentionCache) {
            guard !isFinished else { return }
            if loop.interruption.stopsDecoding { return isFinished = true }
            loop.clock.measure(.search) { step(generator: &generator, cache: &cache) }
            stepCount += 1
            if stepCount >= limit { isFinished = true }
        }

        private mutating func step(generator: inout some RandomNumberGenerator, cache: inout SelfAttentionCache) {
            let vocabulary = loop.model.dimensions.vocabularySize
            let normalizers = loop.filterLogits(&logits, sequences: sequences)
            if var beams = search {
                let (next, sources) = beams.step(sequences: sequences, logits: logits, normalizers: normalizers,
                                                 vocabulary: vocabulary)
                search = beams
                if beams.isComplete || next.isEmpty { return isFinished = true }
                cache.reorder(sources)
                sequences = next
                return
            }
            for s in 0..<sequenceCount {
                let row = s * vocabulary
                let token: Int
                if finished[s] {
                    token = loop.endOfText
                } else if temperature == 0 {
                    token = DecodingLoop.argmax(logits, from: row, count: vocabulary)
                } else {
                    token = DecodingLoop.sample(logits, from: row, count: vocabulary, temperature: temperature,
                                                generator: &generator)
                }
                if !finished[s] { sums[s] += Double(logits[row + token] - normalizers[s]) }
                sequences[s].append(token)
                if token == loop.endOfText { finished[s] = true }
            }
            if finished.allSatisfy({ $0 }) { isFinished = true }
        }

        /// The best candidate, ranked as Whisper ranks them.
        func result() -> DecodingResult {
            let outcome = search.map { $0.finalists(unfinished: sequences) }
                ?? zip(sequences, sums).map { (tokens: $0.0, sumLogProbability: $0.1) }
            return loop.rank(outcome, noSpeechProbability: noSpeechProbability, temperature: temperature)
        }
    }
}
