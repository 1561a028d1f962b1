import Testing
@testable import SpeechEngine

/// Beam bookkeeping against Scripts/reference/decoding_reference.py's port of
/// whisper/decoding.py `BeamSearchDecoder.update` and `finalize`.
@Suite struct BeamSearchTests {
    static let sumTolerance = 1e-9

    @Test("each step keeps the reference's beams, sources, sums and finished sequences",
          arguments: try DecodingReferenceData.shared().beamSearch)
    func stepsMatchReference(_ reference: DecodingReferenceData.BeamCase) {
        var search = BeamSearch(beamSize: reference.beamSize, endOfText: reference.endOfText)
        var sequences = Array(repeating: reference.prompt, count: reference.beamSize)
        for (index, step) in reference.steps.enumerated() {
            let (next, sources) = search.step(sequences: sequences, logProbabilities: step.logProbabilities,
                                              vocabulary: reference.vocabulary)
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
        let (next, _) = search.step(sequences: [[9, 1], [9, 2]], logProbabilities: first, vocabulary: 4)
        #expect(!search.isComplete)
        #expect(next == [[9, 2, 0], [9, 2, 1]])
        // Step 2: both beams end; only the better of the two new endings fits.
        let second: [Float] = [-3, -2, -2.5, -0.2, -3, -2.2, -2.6, -0.3]
        _ = search.step(sequences: next, logProbabilities: second, vocabulary: 4)
        #expect(search.isComplete)
        let finalists = search.finalists(unfinished: []).sorted { $0.sumLogProbability > $1.sumLogProbability }
        #expect(finalists.map(\.tokens) == [[9, 1, 3], [9, 2, 0, 3]])
        #expect(abs(finalists[1].sumLogProbability - Double(Float(-0.5)) - Double(Float(-0.2))) < 1e-9)
    }

    @Test func maskedTokensAreNeverProposed() {
        var search = BeamSearch(beamSize: 2, endOfText: 5)
        let row: [Float] = [-.infinity, -1, -.infinity, -2, -.infinity, -.infinity]
        let (next, _) = search.step(sequences: [[7], [7]], logProbabilities: row + row, vocabulary: 6)
        #expect(next == [[7, 1], [7, 3]])
    }
}
