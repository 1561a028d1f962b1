import Testing
@testable import SpeechEngine

/// Windows decoded in lockstep (one decoder pass per step for all of them)
/// end exactly as each window decoded alone: same tokens, same scores, same
/// no-speech probability, at every kind of decoding.
@Suite struct TranscriptionSessionLockstepTests {
    static let scoreTolerance = 1e-4

    struct Case: Sendable, CustomTestStringConvertible {
        var beamSize: Int
        var bestOf: Int
        var temperature: Double
        var testDescription: String { "beam \(beamSize), best of \(bestOf), temperature \(temperature)" }
    }

    static let cases = [
        Case(beamSize: 1, bestOf: 1, temperature: 0),
        Case(beamSize: 3, bestOf: 1, temperature: 0),
        Case(beamSize: 1, bestOf: 3, temperature: 0.7),
    ]

    static func loops(_ model: WhisperModel, _ testCase: Case) throws -> [DecodingLoop] {
        let shared = try TinyModelReferenceData.shared()
        let special = TinyWhisper.special
        let crosses = [TinyWhisper.cross(model), TextDecoderBatchedTests.otherCross(model), TinyWhisper.cross(model)]
        return crosses.map { cross in
            DecodingLoop(model: model, cross: cross, prompt: [special.startOfTranscript, special.noTimestamps],
                         startOfTranscriptIndex: 0, filters: [DecodingLoopTests.referenceFilter(shared)],
                         beamSize: testCase.beamSize, bestOf: testCase.bestOf, lengthPenalty: nil,
                         maximumSampleCount: 8)
        }
    }

    @Test(arguments: cases)
    func lockstepEqualsEachWindowAlone(_ testCase: Case) throws {
        let model = try TinyWhisper.model()
        let loops = try Self.loops(model, testCase)
        var generators = loops.indices.map { SeededGenerator(seed: UInt64(10 + $0)) }
        let together = TranscriptionSession.runInLockstep(loops, temperature: testCase.temperature,
                                                          generators: &generators, model: model, clock: nil)
        #expect(together.count == loops.count)
        for (index, loop) in loops.enumerated() {
            var generator = SeededGenerator(seed: UInt64(10 + index))
            let alone = loop.run(temperature: testCase.temperature, generator: &generator)
            #expect(together[index].tokens == alone.tokens, "window \(index)")
            #expect(abs(together[index].sumLogProbability - alone.sumLogProbability) < Self.scoreTolerance)
            #expect(abs(together[index].noSpeechProbability - alone.noSpeechProbability) < 1e-5)
            #expect(together[index].alternatives.map(\.tokens) == alone.alternatives.map(\.tokens))
            // Each window's generator moved as far as it would alone (its own draws only).
            #expect(generators[index].next() == generator.next())
        }
        // Windows over the same audio agree wherever they sit in the batch
        // (sampling draws from each window's own seed, so only without it).
        if testCase.temperature == 0 { #expect(together[0].tokens == together[2].tokens) }
    }

    @Test func theStepStagesAreCountedOncePerBatchedPass() throws {
        let model = try TinyWhisper.model()
        let loops = try Self.loops(model, Case(beamSize: 1, bestOf: 1, temperature: 0)).map { loop -> DecodingLoop in
            var loop = loop
            loop.clock = nil
            return loop
        }
        let clock = StageClock()
        var generators = loops.indices.map { SeededGenerator(seed: UInt64($0)) }
        let results = TranscriptionSession.runInLockstep(loops, temperature: 0, generators: &generators, model: model, clock: clock)
        let longest = results.map(\.tokens.count).max() ?? 0
        #expect(clock.counts[.decoderPrompt] == 1)
        // One pass per step while any window is still decoding (the last step's tokens need none).
        #expect((clock.counts[.decoderStep] ?? 0) <= longest + 1)
        #expect((clock.counts[.decoderStep] ?? 0) >= 1)
    }
}
