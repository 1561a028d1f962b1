import Testing
@testable import SpeechEngine

/// Beam bookkeeping against Scripts/reference/decoding_reference.py's port of
/// whisper/decoding.py `BeamSearchDecoder.update` and `finalize`.
@Suite struct BeamSearchTests {
    static let sumTolerance = 1e-9
    /// Normalisers for rows that are log-probabilities already.
    static let zeros = [Float](repeating: 0, count: 8)

    @Test("each step keeps the reference's beams, sources, sums and finished sequences",
          arguments: try DecodingReferenceData.shared().beamSearch)
    func stepsMatchReference(_ reference: DecodingReferenceData.BeamCase) {
        var search = BeamSearch(beamSize: reference.beamSize, endOfText: reference.endOfText)
        var sequences = Array(repeating: reference.prompt, count: reference.beamSize)
        for (index, step) in reference.steps.enumerated() {
            let (next, sources) = search.step(sequences: sequences, logits: step.logProbabilities,
                                              normalizers: Self.zeros, vocabulary: reference.vocabulary)
            #expect(next == step.next, "step \(index)")
            #expect(sources == step.sources, "step \(index)")
            #expect(search.isComplete == step.complete, "step \(index)")
            if search.isComplete || next.isEmpty { break }
            sequences = next
        }
        // The reference appends end-of-text to unfinished finalists; ours leaves them
        // open. Compared without a trailing end-of-text, in token order.
        func normalised(_ list: [([Int], Double)]) -> [([Int], Double)] {
            list.map { ($0.0.last == reference.endOfText ? Array($0.0.dropLast()) : $0.0, $0.1) }
                .sorted { $0.0.lexicographicallyPrecedes($1.0) }
        }
        let expected = normalised(reference.finalists.map { ($0.tokens, $0.sum) })
        let finalists = normalised(search.finalists(unfinished: sequences).map { ($0.tokens, $0.sumLogProbability) })
        #expect(finalists.map(\.0) == expected.map(\.0))
        for (ours, theirs) in zip(finalists, expected) {
            #expect(abs(ours.1 - theirs.1) < Self.sumTolerance, "sum of \(ours.0)")
        }
    }

    @Test func finishedSequencesAreCappedAtTheBeamSize() {
        var search = BeamSearch(beamSize: 2, endOfText: 3)
        // Step 1: only beam 0's best token ends the text.
        let first: [Float] = [-3, -2, -2.5, -0.05, -0.5, -0.6, -2.6, -3]
        let (next, _) = search.step(sequences: [[9, 1], [9, 2]], logits: first, normalizers: Self.zeros, vocabulary: 4)
        #expect(!search.isComplete)
        #expect(next == [[9, 2, 0], [9, 2, 1]])
        // Step 2: both beams end; only the better of the two new endings fits.
        let second: [Float] = [-3, -2, -2.5, -0.2, -3, -2.2, -2.6, -0.3]
        _ = search.step(sequences: next, logits: second, normalizers: Self.zeros, vocabulary: 4)
        #expect(search.isComplete)
        let finalists = search.finalists(unfinished: []).sorted { $0.sumLogProbability > $1.sumLogProbability }
        #expect(finalists.map(\.tokens) == [[9, 1, 3], [9, 2, 0, 3]])
        #expect(abs(finalists[1].sumLogProbability - Double(Float(-0.5)) - Double(Float(-0.2))) < 1e-9)
    }

    /// Raw logits with their rows' normalisers give the steps that their
    /// log-softmax rows give (the search reads the logits, subtracting the
    /// normaliser only for the tokens it proposes).
    @Test func logitsAndNormalizersStepAsLogProbabilities() {
        let (beams, vocabulary) = (3, 997)
        var state: UInt64 = 7
        func logits() -> [Float] {
            (0..<(beams * vocabulary)).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Float(Int64(bitPattern: state >> 11) % 2_000_001) / 100_000 - 10
            }
        }
        var raw = BeamSearch(beamSize: beams, endOfText: 5), normalised = raw
        var sequences = Array(repeating: [1], count: beams), other = sequences
        for step in 0..<6 {
            let values = logits()
            let rows = (0..<beams).map { Array(values[($0 * vocabulary)..<(($0 + 1) * vocabulary)]) }
            let normalizers = rows.map { $0.withUnsafeBufferPointer { VectorMath.logSumExp($0.baseAddress!, count: vocabulary) } }
            let logProbabilities = rows.flatMap { $0.withUnsafeBufferPointer { LogProbabilities.logSoftmax($0) } }
            let a = raw.step(sequences: sequences, logits: values, normalizers: normalizers, vocabulary: vocabulary)
            let b = normalised.step(sequences: other, logits: logProbabilities, normalizers: Self.zeros,
                                    vocabulary: vocabulary)
            #expect(a.next == b.next && a.sources == b.sources, "step \(step)")
            sequences = a.next
            other = b.next
        }
        let ours = raw.finalists(unfinished: sequences), theirs = normalised.finalists(unfinished: other)
        #expect(ours.map(\.tokens) == theirs.map(\.tokens))
        #expect(ours.map(\.sumLogProbability) == theirs.map(\.sumLogProbability))
    }

    /// The top-k scan (the kernel's, both forms, up to its 64) picks what sorting picks: largest first, the earlier index among
    /// equals, never -inf or NaN, fewer than k when fewer are finite.
    @Test func topIndicesMatchAPlainScan() {
        var state: UInt64 = 3
        for count in [0, 1, 7, 8, 9, 64, 1001] {
            let row: [Float] = (0..<count).map { i in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                switch state >> 60 {
                case 0: return -.infinity
                case 1: return .nan
                default: return Float(Int64(bitPattern: state >> 11) % 41) / 4  // many ties
                }
            }
            for k in [1, 6, 20, 64] {
                let expected = row.indices.filter { row[$0] > -.infinity }
                    .sorted { row[$0] != row[$1] ? row[$0] > row[$1] : $0 < $1 }.prefix(k)
                for vectorized in [false, true] {
                    let actual = row.withUnsafeBufferPointer { BeamSearch.topIndices($0, k: k, vectorized: vectorized) }
                    #expect(actual == Array(expected), "count \(count), k \(k), vectorized \(vectorized)")
                }
            }
        }
    }

    @Test func maskedTokensAreNeverProposed() {
        var search = BeamSearch(beamSize: 2, endOfText: 5)
        let row: [Float] = [-.infinity, -1, -.infinity, -2, -.infinity, -.infinity]
        let (next, _) = search.step(sequences: [[7], [7]], logits: row + row, normalizers: Self.zeros, vocabulary: 6)
        #expect(next == [[7, 1], [7, 3]])
    }
}
