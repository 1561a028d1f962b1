import Foundation
@testable import SpeechEngine
import SpeechEvaluation
import TestSupport
import Testing

/// A draft — the segments a pass decoded over the start of the audio, as
/// the streaming pipeline keeps them from a pass at a pause — forced into the
/// pass over more audio: the draft comes back as it was, what follows is
/// decoded as without it, and the decoder runs only for what is new.
@Suite(.serialized, .enabled(if: Models.testsEnabled, Models.disabledReason))
struct ForcedSegmentsModelTests {
    let jfk = Fixtures.corpusClip("audio/jfk/jfk_openai_whisper.wav")

    /// The commits' options: beam 5, silence padding, English.
    static var commitOptions: TranscriptionOptions {
        var options = TranscriptionOptions()
        options.language = "en"
        options.shortWindowPadding = .silence
        return options
    }

    @Test func aDraftIsContinuedNotDecodedAgain() throws {
        let transcriber = try Models.transcriber()
        let samples = try AudioDecoder.decode(contentsOf: jfk)
        // The first 8 s end in the pause after "…can do for you,".
        let draft = try transcriber.transcribe(samples: Array(samples.prefix(8 * 16_000)), options: Self.commitOptions)
        try #require(!draft.segments.isEmpty)
        let plainClock = StageClock(), forcedClock = StageClock()
        let plain = try transcriber.transcribe(samples: samples, options: Self.commitOptions, clock: plainClock)
        var forcedOptions = Self.commitOptions
        forcedOptions.forcedSegments = draft.segments
        let forced = try transcriber.transcribe(samples: samples, options: forcedOptions, clock: forcedClock)

        // The draft opens the result as it was, but for its last segment's closing
        // punctuation, left open: "…can do for you." goes on as "…can do for you, ask…".
        let draftTokens = draft.segments.flatMap(\.tokens)
        try #require(draft.text.hasSuffix("."), "the draft closes its sentence at the pause")
        let kept = Array(draftTokens.dropLast())
        #expect(Array(forced.segments.flatMap(\.tokens).prefix(kept.count)) == kept)
        #expect(forced.segments.first?.startSeconds == draft.segments.first?.startSeconds)
        #expect(forced.text.hasPrefix(String(draft.text.dropLast())))
        // The same words as the pass without a draft, word times included.
        let scorer = TranscriptScorer()
        #expect(scorer.score(reference: plain.text, hypothesis: forced.text, languageTag: "en").counts.errorCount == 0,
                "\(forced.text) / \(plain.text)")
        #expect(forced.words.count == plain.words.count)
        // Decoder steps only for the tokens after the draft (one step a token, beams together).
        let draftTokenCount = draft.segments.reduce(0) { $0 + $1.tokens.count + 2 }
        let plainSteps = try #require(plainClock.counts[.decoderStep])
        let forcedSteps = try #require(forcedClock.counts[.decoderStep])
        #expect(forcedSteps <= plainSteps - draftTokenCount + 2, "steps \(forcedSteps) with the draft, \(plainSteps) without")
    }

    /// A draft that does not belong to the audio (another clip's text) makes
    /// the continuation improbable; the window is then decoded from scratch,
    /// and the wrong draft does not reach the transcript.
    @Test func aDraftThatDoesNotFitIsDecodedAgainFromScratch() throws {
        let transcriber = try Models.transcriber()
        let samples = try AudioDecoder.decode(contentsOf: jfk)
        let other = try #require(try CorpusManifest.entries(set: "librispeech-dev-clean").first)
        let wrong = try transcriber.transcribe(file: other.audioURL, options: Self.commitOptions)
        var options = Self.commitOptions
        options.forcedSegments = Array(wrong.segments.prefix(1)).map {
            var segment = $0
            segment.startSeconds = 0
            segment.endSeconds = min(segment.endSeconds, 3)
            return segment
        }
        let forced = try transcriber.transcribe(samples: samples, options: options)
        let plain = try transcriber.transcribe(samples: samples, options: Self.commitOptions)
        #expect(forced.text == plain.text, "\(forced.text)")
    }
}
