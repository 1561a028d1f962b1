import CSpeechKernels

/// Beam search over one window with Whisper's bookkeeping: each beam
/// proposes its `beamSize + 1` best tokens, the best `beamSize` unfinished
/// sequences continue, finished ones are kept until `beamSize` have ended.
/// ref: whisper/decoding.py `BeamSearchDecoder.update`, `finalize`
struct BeamSearch {
    let beamSize: Int
    let endOfText: Int
    private var sums: [Double]
    private var finished: [[Int]: Double] = [:]

    init(beamSize: Int, endOfText: Int) {
        // Each beam proposes beamSize + 1 tokens through the kernel's scan,
        // which keeps at most 64; `Transcriber` allows beams up to 16.
        precondition(beamSize >= 1 && beamSize + 1 <= Int(SK_LOGIT_CONTENDERS_MAX_LEAST), "BeamSearch beam size")
        self.beamSize = beamSize
        self.endOfText = endOfText
        sums = Array(repeating: 0, count: beamSize)
    }

    var isComplete: Bool { finished.count >= beamSize }

    /// Extends the beams by one token.
    /// - Parameters:
    ///   - logits: `[sequences.count, vocabulary]`, filtered.
    ///   - normalizers: each row's log Σ exp: a token's log-probability is
    ///     its logit less its row's, taken only for the few tokens proposed
    ///     instead of written out for the whole vocabulary.
    /// - Returns: the next sequences and, for each, the index of the beam it continues.
    mutating func step(sequences: [[Int]], logits: [Float], normalizers: [Float], vocabulary: Int)
        -> (next: [[Int]], sources: [Int]) {
        precondition(logits.count >= sequences.count * vocabulary && normalizers.count >= sequences.count,
                     "BeamSearch.step shapes")
        // Candidates in first-seen order; a sequence two beams propose (equal
        // prefixes, as at the first step) keeps its first place and takes the
        // later beam's score and source, as Whisper's dict assignment does.
        var candidates: [(sequence: [Int], score: Double, source: Int)] = []
        var position: [[Int]: Int] = [:]
        for (beam, prefix) in sequences.enumerated() {
            let row = beam * vocabulary
            let proposed = logits.withUnsafeBufferPointer {
                Self.topIndices(UnsafeBufferPointer(rebasing: $0[row..<(row + vocabulary)]), k: beamSize + 1)
            }
            for token in proposed {
                let candidate = prefix + [token]
                let score = sums[beam] + Double(logits[row + token] - normalizers[beam])
                if let existing = position[candidate] {
                    candidates[existing].score = score
                    candidates[existing].source = beam
                } else {
                    position[candidate] = candidates.count
                    candidates.append((candidate, score, beam))
                }
            }
        }
        // Stable sort keeps first-seen order among equal scores, as Python's sorted does.
        let ranked = candidates.indices.sorted {
            candidates[$0].score != candidates[$1].score ? candidates[$0].score > candidates[$1].score : $0 < $1
        }.map { candidates[$0] }
        var next: [[Int]] = []
        var nextSources: [Int] = []
        var nextSums: [Double] = []
        var newlyFinished: [([Int], Double)] = []
        for candidate in ranked {
            if candidate.sequence.last == endOfText {
                newlyFinished.append((candidate.sequence, candidate.score))
            } else {
                next.append(candidate.sequence)
                nextSources.append(candidate.source)
                nextSums.append(candidate.score)
                if next.count == beamSize { break }
            }
        }
        for (sequence, score) in newlyFinished where finished.count < beamSize {
            finished[sequence] = score
        }
        sums = nextSums
        return (next, nextSources)
    }

    /// The finished sequences, topped up with the best unfinished ones.
    func finalists(unfinished: [[Int]]) -> [(tokens: [Int], sumLogProbability: Double)] {
        var result = finished.map { (tokens: $0.key, sumLogProbability: $0.value) }
        if result.count < beamSize {
            for (sequence, sum) in zip(unfinished, sums) where result.count < beamSize {
                result.append((sequence, sum))
            }
        }
        return result
    }

    /// The indices of the `k` (at most 64) largest finite values, largest
    /// first (the earlier index first among equals), through the kernel's
    /// scan, which skips blocks of eight below the k-th best (nearly all of
    /// a vocabulary row).
    static func topIndices(_ row: UnsafeBufferPointer<Float>, k: Int, vectorized: Bool = true) -> [Int] {
        precondition(k <= Int(SK_LOGIT_CONTENDERS_MAX_LEAST), "topIndices takes at most 64")
        guard k > 0, let base = row.baseAddress else { return [] }
        return [Int32](unsafeUninitializedCapacity: k) { indices, count in
            count = Int(sk_top_indices(vectorized ? 1 : 0, base, Int32(row.count), Int32(k), indices.baseAddress!))
        }.map(Int.init)
    }
}
