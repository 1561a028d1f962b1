import Testing
@testable import SpeechEngine

/// Greedy and beam decoding with Whisper's ranking, on the tiny checkpoint,
/// against Scripts/reference/tiny_model_reference.py's port of
/// whisper/decoding.py (`_main_loop`, `GreedyDecoder`, `BeamSearchDecoder`,
/// `MaximumLikelihoodRanker`).
@Suite struct DecodingLoopTests {
    static let scoreTolerance = 1e-4

    /// The generator's filter: eight word tokens and end-of-text, the latter
    /// favoured more with every sampled token, so beams end at different lengths.
    static func referenceFilter(_ reference: TinyModelReferenceData) -> LogitFilter {
        let allowed = reference.allowedTokens + [TinyWhisper.special.endOfText]
        let boost = reference.endOfTextBoost
        let endOfText = TinyWhisper.special.endOfText
        return LogitFilter { logits, tokens, sampleBegin in
            let kept = allowed.map { logits[$0] }
            logits.update(repeating: -.infinity)
            for (token, value) in zip(allowed, kept) { logits[token] = value }
            logits[endOfText] += boost * Float(tokens.count - sampleBegin)
        }
    }

    @Test("tokens, scores and ranking match the reference", arguments: try TinyModelReferenceData.shared().decoding.indices)
    func matchesReference(_ index: Int) throws {
        let shared = try TinyModelReferenceData.shared()
        let reference = shared.decoding[index]
        let model = try TinyWhisper.model()
        let special = TinyWhisper.special
        let loop = DecodingLoop(model: model, cross: TinyWhisper.cross(model),
                                prompt: [special.startOfTranscript, special.noTimestamps], startOfTranscriptIndex: 0,
                                filters: [Self.referenceFilter(shared)], beamSize: reference.beamSize, bestOf: 1,
                                lengthPenalty: reference.lengthPenalty, maximumSampleCount: reference.sampleLength)
        var generator = SeededGenerator(seed: 1)
        let result = loop.run(temperature: 0, generator: &generator)
        #expect(result.tokens == reference.tokens)
        #expect(abs(result.sumLogProbability - reference.sumLogProbability) < Self.scoreTolerance)
        #expect(abs(result.averageLogProbability - reference.averageLogProbability) < Self.scoreTolerance)
        #expect(abs(result.noSpeechProbability - reference.noSpeechProbability) < 1e-3 * reference.noSpeechProbability)
        #expect(abs(result.compressionRatio - reference.compressionRatio) < 1e-12)
        #expect(model.tokenizer.decode(result.tokens) == reference.text)
        // The other finalists, best first, with the reference's ranking scores.
        let others = reference.ranked.dropFirst()
        #expect(result.alternatives.map(\.tokens) == others.map(\.tokens))
        for (ours, theirs) in zip(result.alternatives, others) {
            #expect(abs(ours.score - theirs.score) < Self.scoreTolerance, "score of \(ours.tokens)")
        }
    }

    /// Forced tokens (an earlier pass's text over the same audio) are read,
    /// not decoded: a greedy loop forced with the first tokens of its own
    /// result continues it to the same tokens, scores only what it sampled,
    /// and counts the forced tokens toward the sample limit.
    @Test(arguments: [1, 5])
    func forcedTokensContinueAsDecoded(forcedCount: Int) throws {
        let shared = try TinyModelReferenceData.shared()
        let model = try TinyWhisper.model()
        let special = TinyWhisper.special
        let prompt = [special.startOfTranscript, special.noTimestamps]
        // The reference's words without its end-of-text boost, so the decode runs long.
        let words = LogitFilter { logits, _, _ in
            let kept = shared.allowedTokens.map { logits[$0] }
            logits.update(repeating: -.infinity)
            for (token, value) in zip(shared.allowedTokens, kept) { logits[token] = value }
        }
        func loop(forced: [Int], limit: Int) -> DecodingLoop {
            var loop = DecodingLoop(model: model, cross: TinyWhisper.cross(model), prompt: prompt + forced,
                                    startOfTranscriptIndex: 0, filters: [words], beamSize: 1,
                                    bestOf: 1, lengthPenalty: nil, maximumSampleCount: limit)
            loop.forcedTokenCount = forced.count
            return loop
        }
        var generator = SeededGenerator(seed: 1)
        let whole = loop(forced: [], limit: 24).run(temperature: 0, generator: &generator)
        try #require(whole.tokens.count > forcedCount + 1, "the reference decode is long enough to force part of")
        let forced = Array(whole.tokens.prefix(forcedCount))
        let continued = loop(forced: forced, limit: 24).run(temperature: 0, generator: &generator)
        #expect(continued.tokens == whole.tokens)
        #expect(continued.sumLogProbability > whole.sumLogProbability, "the forced tokens are not scored again")
        let sampled = Double(whole.tokens.count - forcedCount)
        #expect(abs(continued.averageLogProbability - continued.sumLogProbability / (sampled + 1)) < 1e-12)
        let capped = loop(forced: forced, limit: forcedCount + 1).run(temperature: 0, generator: &generator)
        #expect(capped.tokens == Array(whole.tokens.prefix(forcedCount + 1)), "one token sampled after the forced ones")
    }

    /// Speculated tokens (the last pass's text over most of the same audio)
    /// change nothing a greedy loop picks: those it would pick anyway are
    /// read from the prefill, one decoder step less each, and from the first
    /// it would not, it decodes step by step — from the right cache length,
    /// or the tokens after the difference would come out otherwise.
    @Test(arguments: [(0, 0), (3, 0), (6, 0), (100, 0), (3, 4), (0, 4)])
    func speculatedTokensChangeNothing(agreeing: Int, disagreeing: Int) throws {
        let shared = try TinyModelReferenceData.shared()
        let model = try TinyWhisper.model()
        let special = TinyWhisper.special
        let words = LogitFilter { logits, _, _ in
            let kept = shared.allowedTokens.map { logits[$0] }
            logits.update(repeating: -.infinity)
            for (token, value) in zip(shared.allowedTokens, kept) { logits[token] = value }
        }
        func run(speculation: [Int], clock: StageClock) -> DecodingResult {
            var loop = DecodingLoop(model: model, cross: TinyWhisper.cross(model),
                                    prompt: [special.startOfTranscript, special.noTimestamps],
                                    startOfTranscriptIndex: 0, filters: [words], beamSize: 1,
                                    bestOf: 1, lengthPenalty: nil, maximumSampleCount: 24)
            loop.speculation = speculation
            loop.clock = clock
            var generator = SeededGenerator(seed: 1)
            return loop.run(temperature: 0, generator: &generator)
        }
        let plainClock = StageClock()
        let plain = run(speculation: [], clock: plainClock)
        try #require(plain.tokens.count >= 8, "the decode runs long enough to speculate on part of it")
        let agreed = Array(plain.tokens.prefix(agreeing))
        // Tokens the loop does not pick next: another allowed word than each of the plain run's.
        let others = (0..<disagreeing).map { i in
            let position = agreed.count + i
            let picked = position < plain.tokens.count ? plain.tokens[position] : -1
            return shared.allowedTokens.first { $0 != picked }!
        }
        let clock = StageClock()
        let speculated = run(speculation: agreed + others, clock: clock)
        #expect(speculated.tokens == plain.tokens)
        #expect(abs(speculated.sumLogProbability - plain.sumLogProbability) < Self.scoreTolerance)
        #expect(abs(speculated.noSpeechProbability - plain.noSpeechProbability) < 1e-4)
        // Every pick but the last is followed by a step (the last ends the run), or by a speculated row.
        let plainSteps = plainClock.counts[.decoderStep] ?? 0
        let taken = min(agreed.count, plainSteps)
        #expect(clock.counts[.speculatedToken] ?? 0 == taken)
        #expect((clock.counts[.decoderStep] ?? 0) == plainSteps - taken)
    }

    /// Beam search and sampling do not read a speculation.
    @Test func onlyGreedyRunsSpeculate() throws {
        let model = try TinyWhisper.model()
        let special = TinyWhisper.special
        var loop = DecodingLoop(model: model, cross: TinyWhisper.cross(model),
                                prompt: [special.startOfTranscript, special.noTimestamps], startOfTranscriptIndex: 0,
                                filters: [], beamSize: 2, bestOf: 2, lengthPenalty: nil, maximumSampleCount: 6)
        let clock = StageClock()
        loop.clock = clock
        var generator = SeededGenerator(seed: 1)
        let beam = loop.run(temperature: 0, generator: &generator)
        loop.speculation = beam.tokens
        #expect(loop.run(temperature: 0, generator: &generator).tokens == beam.tokens)
        _ = loop.run(temperature: 0.5, generator: &generator)
        #expect(clock.counts[.speculatedToken] == nil)
    }

    /// Length normalisation and the length penalty must pick different winners
    /// here, or the cases above would not tell the two rankings apart.
    @Test func referenceCasesSeparateTheRankings() throws {
        let decoding = try TinyModelReferenceData.shared().decoding
        let normalised = decoding.first { $0.beamSize == 2 && $0.lengthPenalty == nil }!
        let penalised = decoding.first { $0.beamSize == 2 && $0.lengthPenalty == 1.0 }!
        #expect(normalised.tokens != penalised.tokens)
    }
}
