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

    /// Counts decoder calls, so a scripted decoder can change its mind from one pass to the next.
    private final class PassCounter: @unchecked Sendable { var count = 0 }

    /// Runs `body` on a pipeline over `accurate` (and the plain scripted
    /// decoder as the fast model); returns every event and the work done.
    private static func run(accurate: @escaping StreamingPipeline.Decode = Base.decode,
                            volatile: Bool = false, stableWords: Bool = true,
                            _ body: (inout StreamingPipeline, () -> [StreamingEvent]) throws -> Void) rethrows
        -> (events: [StreamingEvent], work: StreamingWork) {
        final class Sink: @unchecked Sendable { var events: [StreamingEvent] = [] }
        let sink = Sink()
        var options = StreamingOptions()
        options.reportsVolatileResults = volatile
        options.commitsStableWords = stableWords
        var pipeline = StreamingPipeline(accurate: accurate, fast: Base.decode, options: options) {
            sink.events.append($0)
        }
        try body(&pipeline) { sink.events }
        return (sink.events, pipeline.work)
    }

    /// Twenty seconds without a pause: no endpoint until the input ends.
    private static let longSpeech = Base.silence(seconds: 0.5) + Base.voiced(seconds: 20) + Base.silence(seconds: 0.3)

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
        #expect(Base.finals(events).flatMap(\.words).count == Base.batchWordCount(Self.longSpeech))
        Base.expectInvariants(events)
    }

    @Test func withoutAgreementTheWholeUtteranceIsDecodedAtTheEnd() throws {
        let (events, work) = try Self.run(stableWords: false) { pipeline, _ in
            try pipeline.consume(Self.longSpeech)
            try pipeline.finish()
        }
        #expect(work.wordsCommittedByAgreement == 0)
        #expect(work.audioAfterEndOfInputSeconds >= 20)
        #expect(Base.finals(events).flatMap(\.words).count == Base.batchWordCount(Self.longSpeech))
    }

    @Test func wordsThatStillChangeFromPassToPassAreNotCommittedBeforeTheEnd() throws {
        // The last second of every pass reads differently each time, as a model unsure of the newest audio.
        let passes = PassCounter()
        let fickle: StreamingPipeline.Decode = { samples, options, interruption, onWindow in
            passes.count += 1
            var transcript = Base.decode(samples, options, interruption, onWindow)
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
        #expect(beforeEnd.flatMap(\.words).allSatisfy { $0.word == " w" }, "only words two passes agreed on")
        #expect(work.audioAfterEndOfInputSeconds <= 3)
        #expect(Base.finals(events).flatMap(\.words).count == Base.batchWordCount(Self.longSpeech))
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
        #expect(volatileCount > 20)
        Base.expectInvariants(events)
    }

    @Test func pausesCommitsAndGapsLoseNoWordWhileWordsAreCommittedDuringSpeech() throws {
        let first = Base.silence(seconds: 0.5) + Base.voiced(seconds: 7)
        let second = Base.silence(seconds: 3) + Base.voiced(seconds: 6) + Base.silence(seconds: 0.5)
        let (events, work) = try Self.run { pipeline, _ in
            try pipeline.consume(first)
            try pipeline.commit(throughSample: Int(4 * Self.rate))
            try pipeline.commit(throughSample: Int(7.2 * Self.rate))
            try pipeline.consume(second)
            try pipeline.finish()
        }
        #expect(work.wordsCommittedByAgreement > 0)
        #expect(Base.finals(events).flatMap(\.words).count == Base.batchWordCount(first + second))
        Base.expectInvariants(events)
    }
}
