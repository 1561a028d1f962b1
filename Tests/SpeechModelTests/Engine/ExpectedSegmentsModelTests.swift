import Foundation
@testable import SpeechEngine
import SpeechEvaluation
import TestSupport
import Testing

/// A volatile pass that expects the last one's segments (the streaming
/// pipeline's passes half a second apart over the same buffer): the same
/// text as without them, fewer decoder steps — on real speech, with the
/// fast model and options the pipeline uses.
@Suite(.serialized, .enabled(if: Models.testsEnabled, Models.disabledReason))
struct ExpectedSegmentsModelTests {
    /// A volatile pass's options (`StreamingPipeline.volatileHypothesis`).
    static var volatileOptions: TranscriptionOptions {
        var options = TranscriptionOptions.greedy
        options.language = "en"
        options.shortWindowPadding = .silence
        options.temperatures = [0]
        options.fitsEncoderWindowToAudio = true
        return options
    }

    @Test func aPassExpectingTheLastOnesTextGivesWhatItGivesWithout() throws {
        let transcriber = try Models.volatileTranscriber()
        let clips = try CorpusManifest.entries(set: "librispeech-dev-clean").prefix(4)
            + CorpusManifest.entries(set: "ljspeech").prefix(4)
        // Decoder passes (the prompt's and one a token after it): a pass
        // whose prompt is one token (tiny.en's, without context) counts as a step.
        func passes(_ clock: StageClock) -> Int {
            (clock.counts[.decoderStep] ?? 0) + (clock.counts[.decoderPrompt] ?? 0)
        }
        var passesWithout = 0, passesWith = 0, speculated = 0, differing = 0
        let scorer = TranscriptScorer()
        for clip in clips {
            let samples = try AudioDecoder.decode(contentsOf: clip.audioURL)
            // Two passes mid-utterance, half a second apart, as the pipeline makes them.
            let end = samples.count * 3 / 5
            let last = try transcriber.transcribe(samples: Array(samples.prefix(end - 8_000)),
                                                  options: Self.volatileOptions)
            let plainClock = StageClock(), expectingClock = StageClock()
            let plain = try transcriber.transcribe(samples: Array(samples.prefix(end)), options: Self.volatileOptions,
                                                   clock: plainClock)
            var expecting = Self.volatileOptions
            expecting.expectedSegments = last.segments
            let result = try transcriber.transcribe(samples: Array(samples.prefix(end)), options: expecting,
                                                    clock: expectingClock)
            // The same text, segments and words; the speculated rows come from a
            // longer product than the steps', so a near tie may go the other way
            // (by a word at most, in one clip at most).
            if result.text == plain.text {
                #expect(result.segments.map(\.startSeconds) == plain.segments.map(\.startSeconds), "\(clip.id)")
                #expect(result.words.map(\.word) == plain.words.map(\.word), "\(clip.id)")
            } else {
                differing += 1
                #expect(scorer.score(reference: plain.text, hypothesis: result.text, languageTag: "en").counts.errorCount
                        <= 1, "\(clip.id): \(result.text) / \(plain.text)")
            }
            passesWithout += passes(plainClock)
            passesWith += passes(expectingClock)
            speculated += expectingClock.counts[.speculatedToken] ?? 0
        }
        // Each token read from the prefill is a decoder pass saved. The last
        // pass's text ends where its audio was cut, often mid-word, so what
        // follows is decoded; still, a third of the passes or more are saved
        // (95 of 248 here when written).
        #expect(differing <= 1)
        #expect(abs(passesWith + speculated - passesWithout) <= 2 * differing + 2)
        #expect(speculated * 3 > passesWithout, "\(speculated) of \(passesWithout) decoder passes speculated")
    }

    /// Another clip's segments: nothing is taken from them, the text is the pass's own.
    @Test func aPassExpectingOtherTextGivesWhatItGivesWithout() throws {
        let transcriber = try Models.volatileTranscriber()
        let clips = try Array(CorpusManifest.entries(set: "librispeech-dev-clean").prefix(2))
        let samples = try AudioDecoder.decode(contentsOf: clips[0].audioURL)
        let other = try transcriber.transcribe(file: clips[1].audioURL, options: Self.volatileOptions)
        let plain = try transcriber.transcribe(samples: samples, options: Self.volatileOptions)
        var expecting = Self.volatileOptions
        expecting.expectedSegments = other.segments
        let result = try transcriber.transcribe(samples: samples, options: expecting)
        #expect(result.text == plain.text)
    }
}
