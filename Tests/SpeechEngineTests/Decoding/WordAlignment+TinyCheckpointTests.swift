import Testing
@testable import SpeechEngine

/// Word timing on the tiny checkpoint against
/// Scripts/reference/tiny_model_reference.py's port of whisper/timing.py
/// `find_alignment`: the alignment matrix (softmax, standardisation, median
/// filter, mean over heads), the DTW path and the words' times and probabilities.
@Suite struct WordAlignmentTinyCheckpointTests {
    @Test("alignment matrix matches the reference", arguments: try TinyModelReferenceData.shared().alignment.indices)
    func matrixMatchesReference(_ index: Int) throws {
        let reference = try TinyModelReferenceData.shared().alignment[index]
        let model = try TinyWhisper.model()
        let special = TinyWhisper.special
        let tokens = [special.startOfTranscript, special.noTimestamps] + reference.textTokens + [special.endOfText]
        let heads = model.config.alignmentHeads.map { (layer: $0[0], head: $0[1]) }
        var capture: TextDecoder.AlignmentCapture? = TextDecoder.AlignmentCapture(heads: heads)
        var cache = model.decoder.makeSelfAttentionCache(sequenceCount: 1)
        let cross = TinyWhisper.cross(model)
        _ = model.decoder.decode([tokens], cache: &cache, cross: cross, logitPositions: nil, capture: &capture)
        let used = reference.frameCount / 2
        let rows = Array(1..<(tokens.count - 1))
        let matrix = WordAlignment(model: model).alignmentMatrix(capture!.scores, rows: rows, tokenCount: tokens.count,
                                                                 totalPositions: cross.positionCount, usedPositions: used)
        #expect(matrix.count == reference.matrix.count)
        let worst = zip(matrix, reference.matrix).map { abs(Double($0) - $1) }.max() ?? 0
        #expect(worst < 1e-4, "largest difference from the reference: \(worst)")
        let path = WordAlignment.dynamicTimeWarping(cost: matrix.map { -$0 }, rows: rows.count, columns: used)
        #expect(path.map { [$0.row, $0.column] } == reference.path)
    }

    @Test("words, times and probabilities match the reference", arguments: try TinyModelReferenceData.shared().alignment.indices)
    func wordsMatchReference(_ index: Int) throws {
        let reference = try TinyModelReferenceData.shared().alignment[index]
        let model = try TinyWhisper.model()
        let words = WordAlignment(model: model).align(textTokens: reference.textTokens,
                                                      startOfTranscript: [TinyWhisper.special.startOfTranscript],
                                                      cross: TinyWhisper.cross(model), frameCount: reference.frameCount,
                                                      language: "en").words
        #expect(words.map(\.timing.word) == reference.words.map(\.word))
        #expect(words.map(\.tokenCount) == Array(repeating: 1, count: reference.words.count))
        for (ours, theirs) in zip(words, reference.words) {
            #expect(abs(ours.timing.startSeconds - theirs.start) < 1e-9, "\(theirs.word) start")
            #expect(abs(ours.timing.endSeconds - theirs.end) < 1e-9, "\(theirs.word) end")
            #expect(abs(ours.timing.probability - theirs.probability) < 1e-3 * theirs.probability, "\(theirs.word) probability")
        }
    }
}
