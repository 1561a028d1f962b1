import Foundation
import Testing
@testable import SpeechEngine

/// Commits during speech (`StreamingOptions.commitsStableWords`) with the
/// scripted decoder of `StreamingPipelineTests`: stable words become final
/// while the speaker goes on, the end of input leaves only a short tail to
/// decode (the pipeline's own accounting), and no word is lost or repeated.
@Suite("StreamingPipeline agreement (scripted decoder)")
struct StreamingPipelineAgreementTests {
    private typealias Base = StreamingPipelineTests
    private static let rate = Base.rate

    /// Twelve pitches, one per syllable in turn, so the scripted decoder can tell words apart.
    private static let pitches: [Double] = (0..<12).map { 120 + 15 * Double($0) }

    /// The voiced stand-in of `StreamingPipelineTests` (syllables at 4 Hz) with
    /// syllable k at pitch `pitches[k % 12]`; syllables change at the troughs.
    static func numberedVoice(seconds: Double) -> [Float] {
        (0..<Int(seconds * rate)).map { index in
            let t = Double(index) / rate
            let pitch = pitches[Int((t + 0.0625) / 0.25) % pitches.count]
            let envelope: Double = 0.15 + 0.85 * (0.5 + 0.5 * sin(2 * Double.pi * 4 * t))
            var value = 0.0
            for harmonic in 1...4 {
                let h = Double(harmonic)
                value += 0.1 / h * sin(2 * Double.pi * pitch * h * t + h)
            }
            return Float(envelope * value)
        }
    }

    /// Names the syllable at `peak` by its pitch (autocorrelation at each
    /// pitch's period; of near ties the highest pitch, so an octave below does not win).
    static func spellByPitch(_ samples: [Float], _ peak: Int) -> String {
        let lags = pitches.map { Int((rate / $0).rounded()) }
        let window = max(lags.max()!, peak - 200)..<min(samples.count, peak + 200)
        guard window.count > 100 else { return " w?" }
        let correlations = lags.map { lag in
            var product = 0.0, left = 0.0, right = 0.0
            for index in window {
                let (a, b) = (Double(samples[index]), Double(samples[index - lag]))
                product += a * b
                left += a * a
                right += b * b
            }
            return product / max(1e-12, (left * right).squareRoot())
        }
        let best = correlations.max()!
        let pick = correlations.indices.filter { correlations[$0] >= best - 0.1 }.max { lags[$0] > lags[$1] }!
        return " w\(pick)"
    }

    /// The scripted decoder with words spelled by pitch.
    static func spelled(_ samples: [Float], _ options: TranscriptionOptions, _ interruption: Interruption?,
                        _ onWindow: ((Transcriber.DecodedWindow) -> Void)?) -> Transcript {
        Base.decode(samples, options, onWindow, spell: spellByPitch)
    }

    /// What one decode of the whole audio hears, word by word: what the stream must give.
    static func batchWords(_ audio: [Float]) -> [String] {
        var options = TranscriptionOptions()
        options.skipsWindowsWithoutSpeech = false
        return spelled(audio, options, nil, nil).words.map(\.word)
    }

    /// Counts decoder calls, so a scripted decoder can change its mind from one pass to the next.
    private final class PassCounter: @unchecked Sendable { var count = 0 }

    /// Runs `body` on a pipeline over `accurate` (and the plain scripted
    /// decoder as the fast model); returns every event and the work done.
    private static func run(accurate: @escaping StreamingPipeline.Decode = spelled,
                            volatile: Bool = false, stableWords: Bool = true,
                            _ body: (inout StreamingPipeline, () -> [StreamingEvent]) throws -> Void) rethrows
        -> (events: [StreamingEvent], work: StreamingWork) {
        final class Sink: @unchecked Sendable { var events: [StreamingEvent] = [] }
        let sink = Sink()
        var options = StreamingOptions()
        options.reportsVolatileResults = volatile
        options.commitsStableWords = stableWords
        var pipeline = StreamingPipeline(accurate: accurate, fast: spelled, options: options) {
            sink.events.append($0)
        }
        try body(&pipeline) { sink.events }
        return (sink.events, pipeline.work)
    }

    /// Twenty seconds without a pause: no endpoint until the input ends.
    private static let longSpeech = Base.silence(seconds: 0.5) + numberedVoice(seconds: 20) + Base.silence(seconds: 0.3)

    @Test func longSpeechIsCommittedDuringSpeechAndOnlyTheTailIsLeftForTheEnd() throws {
        var beforeEnd: [StreamingHypothesis] = []
        let (events, work) = try Self.run { pipeline, emitted in
            try pipeline.consume(Self.longSpeech)
            beforeEnd = Base.finals(emitted())
            try pipeline.finish()
        }
        // Words were final while the speaker went on, up to the last couple of seconds.
        let lastCommitted = try #require(beforeEnd.last)
        #expect(lastCommitted.endSeconds >= 20.5 - 2.5)
        #expect(work.wordsCommittedByAgreement > 60)
        // What the end of input left: the tail, not the utterance.
        #expect(work.audioAfterEndOfInputSeconds > 0)
        #expect(work.audioAfterEndOfInputSeconds <= 2.5, "decoded after the end of input: \(work.audioAfterEndOfInputSeconds) s")
        #expect(work.longestPassAfterEndOfInputSeconds <= 2.5)
        // Every word once: the stream hears what one decode of the whole audio hears.
        #expect(Base.finals(events).flatMap(\.words).map(\.word) == Self.batchWords(Self.longSpeech))
        Base.expectInvariants(events)
    }

    @Test func withoutAgreementTheWholeUtteranceIsDecodedAtTheEnd() throws {
        let (events, work) = try Self.run(stableWords: false) { pipeline, _ in
            try pipeline.consume(Self.longSpeech)
            try pipeline.finish()
        }
        #expect(work.wordsCommittedByAgreement == 0)
        #expect(work.audioAfterEndOfInputSeconds >= 20)
        #expect(Base.finals(events).flatMap(\.words).map(\.word) == Self.batchWords(Self.longSpeech))
    }

    @Test func wordsThatStillChangeFromPassToPassAreNotCommittedBeforeTheEnd() throws {
        // The last second of every pass reads differently each time, as a model unsure of the newest audio.
        let passes = PassCounter()
        let fickle: StreamingPipeline.Decode = { samples, options, interruption, onWindow in
            passes.count += 1
            var transcript = Self.spelled(samples, options, interruption, onWindow)
            let end = Double(samples.count) / Self.rate
            for index in transcript.segments.indices {
                for word in transcript.segments[index].words.indices
                where transcript.segments[index].words[word].endSeconds > end - 1.0 {
                    transcript.segments[index].words[word].word = " x\(passes.count)"
                }
            }
            return transcript
        }
        var beforeEnd: [StreamingHypothesis] = []
        let (events, work) = try Self.run(accurate: fickle) { pipeline, emitted in
            try pipeline.consume(Self.longSpeech)
            beforeEnd = Base.finals(emitted())
            try pipeline.finish()
        }
        #expect(!beforeEnd.isEmpty)
        #expect(beforeEnd.flatMap(\.words).allSatisfy { !$0.word.hasPrefix(" x") }, "only words two passes agreed on")
        #expect(work.audioAfterEndOfInputSeconds <= 3)
        // Every word once; the final pass spells the last second its own way, the rest as batch does.
        let words = Base.finals(events).flatMap(\.words).map(\.word)
        let batch = Self.batchWords(Self.longSpeech)
        let settled = words.prefix { !$0.hasPrefix(" x") }
        #expect(words.count == batch.count)
        #expect(Array(settled) == Array(batch.prefix(settled.count)))
        #expect(settled.count >= batch.count - 5)
        Base.expectInvariants(events)
    }

    @Test(arguments: [1_600, 4_000, 16_000])
    func committedWordsDoNotDependOnChunkSize(chunk: Int) throws {
        func starts(chunk: Int) throws -> [Double] {
            let (events, _) = try Self.run { pipeline, _ in
                var offset = 0
                while offset < Self.longSpeech.count {
                    try pipeline.consume(Array(Self.longSpeech[offset..<min(Self.longSpeech.count, offset + chunk)]))
                    offset += chunk
                }
                try pipeline.finish()
            }
            return Base.finals(events).flatMap(\.words).map(\.startSeconds)
        }
        let reference = try starts(chunk: 1_000)
        #expect(try starts(chunk: chunk) == reference)
    }

    @Test func volatileResultsCoverOnlyAudioAfterTheLastFinal() throws {
        let (events, _) = try Self.run(volatile: true) { pipeline, _ in
            try pipeline.consume(Self.longSpeech)
            try pipeline.finish()
        }
        var lastFinalEnd = 0.0
        var volatileCount = 0
        for event in events {
            switch event {
            case .final(let hypothesis): lastFinalEnd = hypothesis.endSeconds
            case .volatile(let hypothesis):
                volatileCount += 1
                #expect(hypothesis.startSeconds >= lastFinalEnd - 1e-9)
                #expect(hypothesis.words.allSatisfy { $0.startSeconds >= lastFinalEnd - 0.15 })
            default: break
            }
        }
        #expect(volatileCount >= 20)
        Base.expectInvariants(events)
    }

    @Test func pausesCommitsAndGapsLoseNoWordWhileWordsAreCommittedDuringSpeech() throws {
        let first = Base.silence(seconds: 0.5) + Self.numberedVoice(seconds: 7)
        let second = Base.silence(seconds: 3) + Self.numberedVoice(seconds: 6) + Base.silence(seconds: 0.5)
        let (events, work) = try Self.run { pipeline, _ in
            try pipeline.consume(first)
            try pipeline.commit(throughSample: Int(4 * Self.rate))
            try pipeline.commit(throughSample: Int(7.2 * Self.rate))
            try pipeline.consume(second)
            try pipeline.finish()
        }
        #expect(work.wordsCommittedByAgreement > 0)
        #expect(Base.finals(events).flatMap(\.words).map(\.word) == Self.batchWords(first + second))
        Base.expectInvariants(events)
    }
}
