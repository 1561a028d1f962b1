import Testing
@testable import SpeechEngine

/// Window splitting against Scripts/reference/decoding_reference.py's port of
/// whisper/transcribe.py's `consecutive` timestamp block.
@Suite struct SegmentBuilderTests {
    static let builder = SegmentBuilder(special: SpecialTokens(isMultilingual: true))

    @Test("pieces, times and seek match the reference", arguments: try DecodingReferenceData.shared().segments)
    func matchesReference(_ reference: DecodingReferenceData.SegmentCase) {
        let result = Self.builder.split(reference.tokens, windowFrames: reference.windowFrames)
        #expect(result.seekFrames == reference.seekFrames)
        #expect(result.pieces.map(\.tokens) == reference.pieces.map(\.tokens))
        for (ours, theirs) in zip(result.pieces, reference.pieces) {
            #expect(abs(ours.start - theirs.start) < 1e-9 && abs(ours.end - theirs.end) < 1e-9,
                    "piece \(ours.tokens): \(ours.start)-\(ours.end) vs \(theirs.start)-\(theirs.end)")
        }
    }

    /// Seeking is counted in mel frames: two per timestamp step (20 ms).
    @Test func unfinishedSegmentSeeksToItsOpeningTimestampInMelFrames() {
        let tsBegin = Self.builder.special.timestampBegin
        let result = Self.builder.split([tsBegin, 400, tsBegin + 75, tsBegin + 75, 401], windowFrames: 3000)
        #expect(result.pieces.count == 1)
        #expect(result.seekFrames == 150)
    }

    /// A deliberate deviation: whisper seeks `last_timestamp_pos * input_stride`
    /// frames, which is 0 after `<|0.00|><|0.00|>`, and so decodes the same
    /// window again; the engine always moves at least one mel frame.
    @Test func aPairAtZeroStillMovesTheSeekForward() {
        let tsBegin = Self.builder.special.timestampBegin
        let result = Self.builder.split([tsBegin, tsBegin, 400], windowFrames: 3000)
        #expect(result.pieces.map(\.tokens) == [[tsBegin]])
        #expect(result.seekFrames == 1)
    }
}

/// A batched chunk has no next window: the text after its last timestamp
/// pair becomes a segment to the chunk's end instead of being left to seek to.
@Suite struct SegmentBuilderTailTests {
    static let builder = SegmentBuilderTests.builder

    @Test func theTailRunsToTheWindowEnd() {
        let ts = Self.builder.special.timestampBegin
        let tokens = [ts, 400, ts + 75, ts + 80, 401, 402]
        let kept = Self.builder.split(tokens, windowFrames: 2000, keepsTail: true)
        #expect(kept.pieces.map(\.tokens) == [[ts, 400, ts + 75], [ts + 80, 401, 402]])
        #expect(kept.pieces[1].start == 1.6 && kept.pieces[1].end == 20)
        #expect(kept.seekFrames == 2000)
        // Without it (window by window) the tail is decoded again from the pair, 1.5 s.
        let dropped = Self.builder.split(tokens, windowFrames: 2000)
        #expect(dropped.pieces.count == 1 && dropped.seekFrames == 150)
    }

    @Test func aTimestampOnlyTailAddsNothing() {
        let ts = Self.builder.special.timestampBegin
        let tokens = [ts, 400, ts + 75, ts + 80]
        let kept = Self.builder.split(tokens, windowFrames: 2000, keepsTail: true)
        #expect(kept.pieces.map(\.tokens) == [[ts, 400, ts + 75]])
    }
}
