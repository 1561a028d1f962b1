import Testing
@testable import SpeechEngine

/// One decoder pass for several windows gives each window what a pass of its
/// own gives: the rows share the linear layers, never the attention.
@Suite struct TextDecoderBatchedTests {
    /// Float32 sums in a different order (one GEMM over more rows).
    static let tolerance: Float = 1e-4

    /// A second window's features, unlike the first.
    static func otherCross(_ model: WhisperModel) -> CrossAttentionCache {
        let features = TinyWhisper.formula("other features", count: TinyWhisper.audioContext * TinyWhisper.width, scale: 0.8)
        return model.decoder.crossAttentionCache(features: features, positionCount: TinyWhisper.audioContext)
    }

    static func largestDifference(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).map { abs($0 - $1) }.max() ?? 0
    }

    @Test func prefillAndStepsMatchSeparatePassesPerWindow() throws {
        let model = try TinyWhisper.model()
        let special = TinyWhisper.special
        let crosses = [TinyWhisper.cross(model), Self.otherCross(model)]
        let prompt = [special.startOfTranscript, special.noTimestamps]
        var noCapture: TextDecoder.AlignmentCapture?

        // Alone: each window's prompt, then two beams / three samples one step on.
        var alone: [[Float]] = []
        var aloneCaches: [SelfAttentionCache] = []
        for cross in crosses {
            var cache = model.decoder.makeSelfAttentionCache(sequenceCount: 1)
            alone.append(model.decoder.decode([prompt], cache: &cache, cross: cross, logitPositions: [0, 1], capture: &noCapture))
            aloneCaches.append(cache)
        }
        // Together.
        var caches = crosses.map { _ in model.decoder.makeSelfAttentionCache(sequenceCount: 1) }
        let together = model.decoder.decode(batch: [[prompt], [prompt]], groups: [0, 1], caches: &caches,
                                            crosses: crosses, logitPositions: [0, 1])
        #expect(together.count == 2)
        for g in 0..<2 {
            #expect(together[g].count == alone[g].count)
            #expect(Self.largestDifference(together[g], alone[g]) < Self.tolerance, "prefill of window \(g)")
        }
        // The windows' rows differ, or the test could not tell a mix-up.
        #expect(Self.largestDifference(alone[0], alone[1]) > 0.01)

        let steps = [[[400], [401]], [[402], [403], [404]]]
        for g in 0..<2 {
            caches[g].reorder(Array(repeating: 0, count: steps[g].count))
            aloneCaches[g].reorder(Array(repeating: 0, count: steps[g].count))
        }
        // Only window 1 steps: window 0's cache must be left alone.
        let oneGroup = model.decoder.decode(batch: [steps[1]], groups: [1], caches: &caches, crosses: crosses,
                                            logitPositions: nil)
        let oneAlone = model.decoder.decode(steps[1], cache: &aloneCaches[1], cross: crosses[1], logitPositions: nil,
                                            capture: &noCapture)
        #expect(Self.largestDifference(oneGroup[0], oneAlone) < Self.tolerance)
        #expect(caches[0].length == prompt.count && caches[1].length == prompt.count + 1)

        let zeroGroup = model.decoder.decode(batch: [steps[0]], groups: [0], caches: &caches, crosses: crosses,
                                             logitPositions: nil)
        let zeroAlone = model.decoder.decode(steps[0], cache: &aloneCaches[0], cross: crosses[0], logitPositions: nil,
                                             capture: &noCapture)
        #expect(zeroGroup[0].count == 2 * model.dimensions.vocabularySize)
        #expect(Self.largestDifference(zeroGroup[0], zeroAlone) < Self.tolerance)
    }

    @Test func stagesAreCountedWhenAClockIsGiven() throws {
        let model = try TinyWhisper.model()
        let special = TinyWhisper.special
        let crosses = [TinyWhisper.cross(model), Self.otherCross(model)]
        var caches = crosses.map { _ in model.decoder.makeSelfAttentionCache(sequenceCount: 1) }
        let clock = StageClock()
        _ = model.decoder.decode(batch: [[[special.startOfTranscript, special.noTimestamps]], [[special.startOfTranscript, special.noTimestamps]]],
                                 groups: [0, 1], caches: &caches, crosses: crosses, logitPositions: nil, clock: clock)
        _ = model.decoder.decode(batch: [[[400]], [[401]]], groups: [0, 1], caches: &caches, crosses: crosses,
                                 logitPositions: nil, clock: clock)
        #expect(clock.counts[.decoderPrompt] == 1)
        #expect(clock.counts[.decoderStep] == 1)
        #expect(clock.counts[.logits] == 2)
    }
}
