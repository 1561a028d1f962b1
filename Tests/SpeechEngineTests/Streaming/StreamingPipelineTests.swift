import Foundation
import Testing
@testable import SpeechEngine

/// The streaming pipeline's endpointing, commits, gaps and recordings with a
/// scripted decoder: it "hears" a word every half second of the speech the
/// real detector finds in the audio it is given, so what comes out depends
/// on the audio and on where the pipeline cut it, with no model.
@Suite("StreamingPipeline (scripted decoder)")
struct StreamingPipelineTests {
    private static let rate = 16_000.0

    /// A voiced-speech stand-in: 20 harmonics of 150 Hz, about -20 dBFS at
    /// its peaks, its level rising and falling four times a second like
    /// syllables (a steady tone would become the detector's noise floor).
    private static func voiced(seconds: Double) -> [Float] {
        (0..<Int(seconds * rate)).map { oneSecondOfVoice[$0 % oneSecondOfVoice.count] }
    }

    /// One period of the stand-in (150 Hz and 4 Hz both repeat every second), computed once.
    private static let oneSecondOfVoice: [Float] = (0..<Int(rate)).map { index in
        let t = Double(index) / rate
        let envelope = 0.15 + 0.85 * (0.5 + 0.5 * sin(2 * Double.pi * 4 * t))
        return Float(envelope * (1...20).reduce(0.0) { $0 + 0.02 * sin(2 * Double.pi * 150 * Double($1) * t + Double($1)) })
    }

    /// The words one decode of the whole audio hears: what the stream must give.
    private static func batchWordCount(_ audio: [Float]) -> Int {
        decode(audio, TranscriptionOptions(), nil, nil).words.count
    }

    /// Room noise about 60 dB below the voiced stand-in: the detector tracks
    /// its noise floor on it (after digital silence alone a steady tone never
    /// stands out from a floor made of itself).
    private static func silence(seconds: Double) -> [Float] {
        var state: UInt32 = 12_345
        return (0..<Int(seconds * rate)).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return (Float(state >> 8) / Float(1 << 24) - 0.5) * 0.002
        }
    }

    /// One segment per speech region, a 0.2 s word at each syllable (a peak
    /// of the level): what it hears depends on the audio, not on where the
    /// pipeline cut it.
    static func decode(_ samples: [Float], _ options: TranscriptionOptions, _ interruption: Interruption?,
                       _ onWindow: ((Transcriber.DecodedWindow) -> Void)?) -> Transcript {
        let frame = 160
        let levels = stride(from: 0, to: samples.count - frame, by: frame).map { start in
            samples[start..<(start + frame)].reduce(Float(0)) { $0 + $1 * $1 } / Float(frame)
        }
        // A syllable's peak: the loudest frame within 80 ms either side.
        let peaks = levels.indices.filter { index in
            let neighbours = max(0, index - 8)..<min(levels.count, index + 9)
            return index >= 8 && index + 8 < levels.count && levels[index] > 1e-4
                && neighbours.allSatisfy { $0 == index || levels[$0] < levels[index] }
        }.map { Double($0 * frame + frame / 2) / rate }
        var segments: [Segment] = []
        for region in SpeechActivityDetector.speechRegions(in: samples) {
            let start = Double(region.lowerBound) / rate, end = Double(region.upperBound) / rate
            let words = peaks.filter { $0 >= start && $0 < end }.map {
                WordTiming(word: " w", startSeconds: $0 - 0.1, endSeconds: $0 + 0.1, probability: 0.9)
            }
            guard !words.isEmpty else { continue }
            segments.append(Segment(id: segments.count, startSeconds: start, endSeconds: end,
                                    text: words.map(\.word).joined(), tokens: [], words: words,
                                    averageLogProbability: -0.1, noSpeechProbability: 0.01, compressionRatio: 1,
                                    temperature: 0))
        }
        if let onWindow {
            for segment in segments {
                onWindow(Transcriber.DecodedWindow(segments: [segment], throughSeconds: segment.endSeconds,
                                                   alternatives: []))
            }
        }
        return Transcript(segments: segments, language: "en", languageProbability: 1,
                          durationSeconds: Double(samples.count) / rate)
    }

    /// Runs `body` on a pipeline and returns every event it emitted.
    /// `body` gets the pipeline and a way to read what it emitted so far.
    private static func events(_ body: (inout StreamingPipeline, () -> [StreamingEvent]) throws -> Void) rethrows
        -> [StreamingEvent] {
        final class Sink: @unchecked Sendable { var events: [StreamingEvent] = [] }
        let sink = Sink()
        var options = StreamingOptions()
        options.reportsVolatileResults = false
        var pipeline = StreamingPipeline(accurate: decode, fast: decode, options: options) { sink.events.append($0) }
        try body(&pipeline) { sink.events }
        return sink.events
    }

    private static func finals(_ events: [StreamingEvent]) -> [StreamingHypothesis] {
        events.compactMap { if case .final(let hypothesis) = $0 { hypothesis } else { nil } }
    }

    private static func watermarks(_ events: [StreamingEvent]) -> [Double] {
        events.compactMap { if case .committed(let seconds) = $0 { seconds } else { nil } }
    }

    /// Invariants every run keeps: finals disjoint and increasing, watermarks never decrease.
    private static func expectInvariants(_ events: [StreamingEvent]) {
        let finals = finals(events)
        #expect(zip(finals, finals.dropFirst()).allSatisfy { $0.endSeconds <= $1.startSeconds + 1e-9 })
        let marks = watermarks(events)
        #expect(zip(marks, marks.dropFirst()).allSatisfy { $0 <= $1 })
        let words = finals.flatMap(\.words)
        #expect(zip(words, words.dropFirst()).allSatisfy { $0.startSeconds < $1.startSeconds })
        #expect(finals.allSatisfy { final in final.words.allSatisfy { $0.startSeconds >= final.startSeconds - 1e-9 } },
                "a final's words start in its range")
    }

    @Test func silenceAfterSpeechEndsTheUtteranceBeforeMoreAudio() throws {
        let first = Self.silence(seconds: 1) + Self.voiced(seconds: 3) + Self.silence(seconds: 3)
        let events = try Self.events { pipeline, emitted in
            try pipeline.consume(first)
            #expect(Self.finals(emitted()).count == 1, "the first utterance is final before more audio comes")
            try pipeline.consume(Self.voiced(seconds: 2) + Self.silence(seconds: 1))
            try pipeline.finish()
        }
        let finals = Self.finals(events)
        #expect(finals.count == 2)
        #expect(finals.flatMap(\.words).count == Self.batchWordCount(first + Self.voiced(seconds: 2) + Self.silence(seconds: 1)))
        // The first utterance's words sit in the first burst, the second's in the second, in stream time.
        #expect(finals[0].words.allSatisfy { $0.startSeconds >= 0.9 && $0.endSeconds <= 4.1 })
        #expect(finals[1].words.allSatisfy { $0.startSeconds >= 6.9 && $0.endSeconds <= 9.1 })
        #expect(events.contains { if case .speechEnded = $0 { true } else { false } })
        Self.expectInvariants(events)
    }

    @Test func commitThroughATimeFinalizesTheWordsBeforeItAndKeepsTheRest() throws {
        let audio = Self.silence(seconds: 0.5) + Self.voiced(seconds: 6) + Self.silence(seconds: 0.5)
        var afterCommit: [StreamingEvent] = []
        let events = try Self.events { pipeline, emitted in
            try pipeline.consume(Array(audio.prefix(Int(5 * Self.rate))))
            try pipeline.commit(throughSample: Int(3.1 * Self.rate))
            afterCommit = emitted()
            try pipeline.consume(Array(audio.dropFirst(Int(5 * Self.rate))))
            try pipeline.finish()
        }
        let cutFinals = Self.finals(afterCommit)
        let first = try #require(cutFinals.first)
        #expect(cutFinals.count == 1)
        #expect(first.endSeconds >= 3.1 && first.endSeconds < 3.1 + 0.2)
        #expect(first.words.allSatisfy { ($0.startSeconds + $0.endSeconds) / 2 <= 3.1 })
        #expect(Self.watermarks(afterCommit).last.map { $0 >= 3.1 } == true)
        // Every word of the sentence comes out once, the ones after the cut in later finals.
        let all = Self.finals(events).flatMap(\.words)
        #expect(all.count == Self.batchWordCount(audio))
        Self.expectInvariants(events)
    }

    @Test func aShortGapIsSilenceALongOneMovesStreamTimeOn() throws {
        let events = try Self.events { pipeline, emitted in
            try pipeline.consume(Self.silence(seconds: 0.5) + Self.voiced(seconds: 1.5))
            try pipeline.appendGap(sampleCount: Int(1.0 * Self.rate))
            try pipeline.consume(Self.voiced(seconds: 1))
            try pipeline.appendGap(sampleCount: Int(10 * Self.rate))
            try pipeline.consume(Self.voiced(seconds: 1) + Self.silence(seconds: 0.5))
            try pipeline.finish()
        }
        let finals = Self.finals(events)
        let words = finals.flatMap(\.words)
        // The long gap committed what came before it; the last word is after 14 s of stream time.
        #expect(finals.count == 2)
        #expect(try #require(words.last).startSeconds >= 14)
        #expect(Self.watermarks(events).contains { abs($0 - 14) < 1e-6 })
        Self.expectInvariants(events)
    }

    @Test func aRecordingComesOutWindowByWindowAfterWhatWasPending() throws {
        let recording = Self.silence(seconds: 0.5) + Self.voiced(seconds: 2) + Self.silence(seconds: 2)
            + Self.voiced(seconds: 1.5)
        let events = try Self.events { pipeline, emitted in
            try pipeline.consume(Self.silence(seconds: 0.5) + Self.voiced(seconds: 1))
            try pipeline.appendRecording(recording)
            try pipeline.finish()
        }
        let finals = Self.finals(events)
        #expect(finals.count == 3)
        #expect(finals[1].startSeconds >= finals[0].endSeconds)
        #expect(finals[2].words.allSatisfy { $0.startSeconds >= 1.5 + 4 - 0.1 })
        #expect(Self.watermarks(events).last.map { abs($0 - 7.5) < 1e-6 } == true)
        Self.expectInvariants(events)
    }

    /// Volatile passes and live finals encode fitted windows as their
    /// options say; a recording is decoded as a file, in whole windows.
    @Test(arguments: [true, false])
    func liveWindowsAreFittedAsAskedRecordingsNever(fitted: Bool) throws {
        final class Calls: @unchecked Sendable { var volatile: [Bool] = [], accurate: [Bool] = [], recording: [Bool] = [] }
        let calls = Calls()
        var options = StreamingOptions()
        options.transcription.language = "en"
        options.fitsVolatileWindowToAudio = fitted
        options.fitsCommitWindowToAudio = !fitted
        var pipeline = StreamingPipeline(
            accurate: { samples, transcription, interruption, onWindow in
                calls.accurate.append(transcription.fitsEncoderWindowToAudio)
                return Self.decode(samples, transcription, interruption, onWindow)
            },
            fast: { samples, transcription, interruption, onWindow in
                calls.volatile.append(transcription.fitsEncoderWindowToAudio)
                return Self.decode(samples, transcription, interruption, onWindow)
            },
            recording: { samples, transcription, interruption, onWindow in
                calls.recording.append(transcription.fitsEncoderWindowToAudio)
                return Self.decode(samples, transcription, interruption, onWindow)
            },
            options: options) { _ in }
        let live = Self.silence(seconds: 0.5) + Self.voiced(seconds: 4) + Self.silence(seconds: 3)
        for start in stride(from: 0, to: live.count, by: StreamingPipeline.blockSampleCount) {
            try pipeline.consume(Array(live[start..<min(live.count, start + StreamingPipeline.blockSampleCount)]))
        }
        try pipeline.commit(throughSample: Int(1 * Self.rate))
        try pipeline.appendRecording(Self.voiced(seconds: 2) + Self.silence(seconds: 1))
        try pipeline.finish()
        #expect(calls.volatile.count >= 4)
        #expect(calls.volatile.allSatisfy { $0 == fitted })
        #expect(!calls.accurate.isEmpty)
        #expect(calls.accurate.allSatisfy { $0 == !fitted })
        #expect(calls.recording == [false])
    }

    /// Counts the passes of each model on a pipeline fed `live` block by block, then finished.
    private final class PassLog: @unchecked Sendable {
        var accurate = 0, accurateAfterEndOfInput = 0, fast: [Int] = [], events: [StreamingEvent] = []
        var inputEnded = false
        /// Each accurate pass's forced segments (the draft it started from), prompt, samples heard and result.
        var forced: [[Segment]] = [], decoded: [Transcript] = [], prompts: [String?] = [], accurateSamples: [Int] = []
        /// Each fast pass's prompt and the stream time of its event count when it ran.
        var fastPrompts: [String?] = [], fastAtEvent: [Int] = []
        /// Samples fed when each fast pass ran (the stream's end then; a pass may hear less of it).
        var fed = 0, fastFed: [Int] = []
        /// Each fast pass's expected segments and result; whether any accurate pass had expected segments.
        var fastExpected: [[Segment]] = [], fastDecoded: [Transcript] = [], accurateExpected = false
        /// The log-mel frames each accurate and fast pass's encoder window holds.
        var accurateWindows: [Int] = [], fastWindows: [Int] = []
    }

    /// `fastWritesNothing(pass)`: the fast pass of that index hears no words
    /// (a piece of a word, noise the detector took for speech).
    private static func passes(over live: [Float], options: StreamingOptions,
                               workload: StreamingWorkload? = nil,
                               fastWritesNothing: @escaping @Sendable (Int) -> Bool = { _ in false }) throws -> PassLog {
        let log = PassLog()
        var pipeline = StreamingPipeline(
            accurate: { samples, transcription, interruption, onWindow in
                log.accurate += 1
                if log.inputEnded { log.accurateAfterEndOfInput += 1 }
                log.forced.append(transcription.forcedSegments)
                log.prompts.append(transcription.initialPrompt)
                log.accurateSamples.append(samples.count)
                if !transcription.expectedSegments.isEmpty { log.accurateExpected = true }
                log.accurateWindows.append(transcription.encoderWindowFrames(contentFrames: samples.count / 160))
                let transcript = Self.decode(samples, transcription, interruption, onWindow)
                log.decoded.append(transcript)
                return transcript
            },
            fast: { samples, transcription, interruption, onWindow in
                log.fast.append(samples.count)
                log.fastPrompts.append(transcription.initialPrompt)
                log.fastAtEvent.append(log.events.count)
                log.fastFed.append(log.fed)
                log.fastExpected.append(transcription.expectedSegments)
                log.fastWindows.append(transcription.encoderWindowFrames(contentFrames: samples.count / 160))
                let transcript = fastWritesNothing(log.fast.count - 1)
                    ? Transcript(segments: [], language: "en", languageProbability: 1,
                                 durationSeconds: Double(samples.count) / Self.rate)
                    : Self.decode(samples, transcription, interruption, onWindow)
                log.fastDecoded.append(transcript)
                return transcript
            },
            options: options, workload: workload) { log.events.append($0) }
        var fed = 0
        while fed < live.count {
            let end = min(live.count, fed + StreamingPipeline.blockSampleCount)
            log.fed = end
            try pipeline.consume(Array(live[fed..<end]))
            fed = end
        }
        log.inputEnded = true
        try pipeline.finish()
        return log
    }

    /// A pause decodes the utterance once with the accurate model; when the
    /// input ends in that pause, that pass is the final (no second decode
    /// after the end of input), and the volatile text shown during the pause
    /// is already the final's.
    @Test func aPauseAtTheEndDecodesTheFinalOnce() throws {
        let live = Self.silence(seconds: 0.5) + Self.voiced(seconds: 4) + Self.silence(seconds: 1.5)
        let log = try Self.passes(over: live, options: StreamingOptions())
        #expect(log.accurate == 1)
        #expect(log.accurateAfterEndOfInput == 0, "the final was decoded during the pause")
        let finals = Self.finals(log.events)
        #expect(finals.count == 1)
        #expect(finals.flatMap(\.words).count == Self.batchWordCount(live))
        let lastVolatile = log.events.last { if case .volatile = $0 { true } else { false } }
        guard case .volatile(let shown)? = lastVolatile else { Issue.record("no volatile result"); return }
        #expect(shown.text == finals.first?.text)

        var without = StreamingOptions()
        without.decodesFinalAtPause = false
        let plain = try Self.passes(over: live, options: without)
        #expect(plain.accurate == 1)
        #expect(plain.accurateAfterEndOfInput == 1)
        #expect(Self.finals(plain.events).map(\.text) == finals.map(\.text), "the same final either way")
    }

    /// Speech after the pause means the pass there is not the final: the
    /// final covers the whole utterance, and no word of either part is lost. A short
    /// utterance waits a second for its pass (speakers often go on after
    /// shorter pauses); a long one half a second, near its 0.8 s endpoint.
    @Test func speechAfterAPauseDecodesTheUtteranceAgain() throws {
        let live = Self.silence(seconds: 0.5) + Self.voiced(seconds: 3) + Self.silence(seconds: 1.3)
            + Self.voiced(seconds: 2) + Self.silence(seconds: 1.5)
        let log = try Self.passes(over: live, options: StreamingOptions())
        #expect(log.accurate == 2, "one pass at each pause; the first is not the final once speech resumed")
        #expect(log.accurateAfterEndOfInput == 0)
        let finals = Self.finals(log.events)
        #expect(finals.count == 1, "a short utterance goes on across a pause under the endpoint")
        #expect(finals.flatMap(\.words).count == Self.batchWordCount(live))
        Self.expectInvariants(log.events)

        let shortPause = Self.silence(seconds: 0.5) + Self.voiced(seconds: 3) + Self.silence(seconds: 0.7)
            + Self.voiced(seconds: 2) + Self.silence(seconds: 1.5)
        #expect(try Self.passes(over: shortPause, options: StreamingOptions()).accurate == 1,
                "no pass at a short utterance's short pause")
    }

    /// The pass at a pause is a draft once the speaker goes on: the next
    /// accurate pass over the same buffer starts from its segments instead
    /// of decoding them again — here the final after a stop mid-sentence,
    /// which then decodes only the speech after the pause. A commit moves
    /// the buffer and drops the draft.
    @Test func aPassAtAPauseIsTheDraftOfTheNextPass() throws {
        // A 0.5 s pause in a 9 s utterance: past the 0.5 s for a pass, under the 0.8 s endpoint.
        let live = Self.silence(seconds: 0.5) + Self.voiced(seconds: 9) + Self.silence(seconds: 0.5)
            + Self.voiced(seconds: 3)
        let log = try Self.passes(over: live, options: StreamingOptions())
        #expect(log.accurate == 2, "one pass at the pause, one after the stop")
        #expect(log.accurateAfterEndOfInput == 1)
        #expect(log.forced.first?.isEmpty == true, "the first pass has no draft")
        #expect(log.forced.last == log.decoded.first?.segments, "the final starts from the pause's segments")
        #expect(Self.finals(log.events).flatMap(\.words).count == Self.batchWordCount(live))
        var dropping = StreamingOptions()
        dropping.keepsPausePassWhenSpeechResumes = false
        let dropped = try Self.passes(over: live, options: dropping)
        #expect(dropped.forced.allSatisfy { $0.isEmpty }, "without drafts every pass decodes the whole buffer")
        #expect(Self.finals(dropped.events).map(\.text) == Self.finals(log.events).map(\.text))

        // Two utterances: the second's passes start afresh after the first's commit.
        let two = live + Self.silence(seconds: 2.5) + Self.voiced(seconds: 2)
        let second = try Self.passes(over: two, options: StreamingOptions())
        #expect(second.forced.last?.isEmpty == true, "no draft across a commit")
        #expect(Self.finals(second.events).flatMap(\.words).count == Self.batchWordCount(two))
        Self.expectInvariants(second.events)
    }

    /// When the speaker goes on after a pass at a pause, that pass's closed
    /// segments are final at once (confirmed when the speaker resumes, not
    /// when the utterance ends); their audio leaves the buffer but for a
    /// 0.2 s lead-in and their text joins the prompt; the last segment stays
    /// pending as the draft of the next pass, which hears only the speech
    /// since the pause; and no word is lost or repeated.
    @Test func theClosedSegmentsOfAPassAtAPauseAreFinalWhenTheSpeakerGoesOn() throws {
        let live = Self.silence(seconds: 0.5) + Self.voiced(seconds: 5) + Self.silence(seconds: 0.6)
            + Self.voiced(seconds: 4) + Self.silence(seconds: 0.5) + Self.voiced(seconds: 3)
        let log = try Self.passes(over: live, options: StreamingOptions())
        let paused = try #require(log.decoded.first)
        try #require(paused.segments.count == 2, "the pass at the pause hears two phrases")
        let finals = Self.finals(log.events)
        #expect(finals.count == 2)
        #expect(finals.first?.words == paused.segments.first?.words, "the first phrase is final as the pause's pass decoded it")
        // The open phrase is shown again at once: no words vanish between the final and the next volatile pass.
        guard case .volatile(let open)? = log.events.dropFirst(firstFinalIndex(log.events) + 1).first(where: {
            switch $0 { case .progress, .committed: false; default: true }
        }) else { Issue.record("no volatile result right after the confirmation"); return }
        #expect(open.words.count == paused.segments.last?.words.count)
        let firstFinal = try #require(log.events.firstIndex { if case .final = $0 { true } else { false } })
        let inputEnd = try #require(log.events.lastIndex { if case .progress = $0 { true } else { false } })
        #expect(firstFinal < inputEnd, "confirmed before the input ended")
        // The buffer now starts 0.2 s before the end of the confirmed phrase: the draft is the open phrase moved so.
        let cut = try #require(finals.first?.endSeconds) - 0.2
        let draft = try #require(log.forced.last)
        let openPhrase = try #require(paused.segments.last)
        #expect(draft.count == 1 && draft[0].words.count == openPhrase.words.count, "the last pass starts from the open phrase")
        #expect(abs(draft[0].startSeconds + cut - openPhrase.startSeconds) < 1e-3)
        #expect(zip(draft[0].words, openPhrase.words).allSatisfy { abs($0.startSeconds + cut - $1.startSeconds) < 1e-3 })
        #expect(log.prompts.last == finals.first?.text, "the confirmed text is the prompt, its audio gone")
        #expect(abs(Double(try #require(log.accurateSamples.last)) / Self.rate - (Double(live.count) / Self.rate - cut))
                < 1e-3, "the final hears the audio since the cut, not the utterance")
        #expect(finals.flatMap(\.words).count == Self.batchWordCount(live))
        Self.expectInvariants(log.events)
    }

    /// Cutting confirmed audio does not make an utterance short: its endpoint
    /// (0.8 s of silence once it lasts 8 s) and its passes at pauses (0.5 s)
    /// count the audio cut since the last commit, not just the buffer's.
    @Test func anUtteranceCutAtAPauseKeepsTheEndpointOfItsLength() throws {
        let head = Self.silence(seconds: 0.5) + Self.voiced(seconds: 7) + Self.silence(seconds: 0.6)
            + Self.voiced(seconds: 2) + Self.silence(seconds: 0.6) + Self.voiced(seconds: 2)
        let live = head + Self.silence(seconds: 0.9) + Self.voiced(seconds: 2) + Self.silence(seconds: 0.3)
        let log = try Self.passes(over: live, options: StreamingOptions())
        let finals = Self.finals(log.events)
        try #require(finals.count == 3, "confirmed at the second pause, ended at 0.8 s into the third, then the rest")
        // The buffer after the cut held 5.4 s, under 8 s: had it counted alone, the 0.9 s would not end the utterance.
        #expect(finals[1].endSeconds <= Double(head.count) / Self.rate + 0.9 + 1e-9)
        #expect(finals[2].words.allSatisfy { $0.startSeconds >= Double(head.count) / Self.rate + 0.9 - 0.15 })
        #expect(finals.flatMap(\.words).count == Self.batchWordCount(live))
        Self.expectInvariants(log.events)
    }

    /// Once words are confirmed at a pause, a volatile pass hears only the
    /// buffer after them (from just before the first open word) with their
    /// text in its prompt, and its words land at the same stream times as
    /// the final's: its cost follows the speech since the pause, not the utterance.
    @Test func volatilePassesAfterConfirmedWordsHearOnlyTheRest() throws {
        let first = Self.voiced(seconds: 5), pause = Self.silence(seconds: 0.6), second = Self.voiced(seconds: 4)
        let live = Self.silence(seconds: 0.5) + first + pause + second + Self.silence(seconds: 0.5)
            + Self.voiced(seconds: 3)
        // Settled volatile words would move these passes' windows further (their own test).
        var options = StreamingOptions()
        options.settlesVolatileWords = false
        let log = try Self.passes(over: live, options: options)
        let finals = Self.finals(log.events)
        try #require(finals.count == 2)
        let confirmedAt = firstFinalIndex(log.events)
        let after = log.fast.indices.filter { log.fastAtEvent[$0] > confirmedAt }
        try #require(after.count >= 3, "volatile passes run while the speaker goes on")
        // The buffer still holds the first phrase; the passes start 0.2 s before the second.
        let sinceConfirmed = Double(pause.count + second.count) / Self.rate + 0.5 + 3 + 0.2 + 0.05
        for pass in after {
            #expect(Double(log.fast[pass]) / Self.rate < sinceConfirmed, "pass \(pass) heard \(log.fast[pass]) samples")
            #expect(log.fastPrompts[pass] == finals[0].text, "the confirmed text is the prompt")
        }
        #expect(log.fastPrompts[..<(after.first ?? 0)].allSatisfy { $0 == nil }, "nothing confirmed, no prompt")
        let volatiles = log.events[confirmedAt...].compactMap { if case .volatile(let h) = $0 { h } else { nil } }
        let lastVolatile = try #require(volatiles.last)
        #expect(lastVolatile.words.allSatisfy { $0.startSeconds >= finals[0].endSeconds - 1e-9 })
        // The same words at the same times as the final's, give or take the 10 ms frames of the scripted decoder.
        for word in lastVolatile.words {
            #expect(finals[1].words.contains { abs($0.startSeconds - word.startSeconds) <= 0.021 },
                    "a volatile word at \(word.startSeconds) s the final does not have")
        }
        #expect(lastVolatile.words.count >= 8, "the second phrase's eight words are all there")
        Self.expectInvariants(log.events)
    }

    /// Volatile words two passes in a row heard the same, 1.5 s or more
    /// before the audio's end, settle: later passes hear only the audio from
    /// just before their end, with their text as the prompt, so a pass costs
    /// the last seconds of speech however long the utterance; the volatile
    /// text is the settled words plus the pass's, each word once and in
    /// order. The final is the accurate pass's, settling or not.
    @Test func settledVolatileWordsLeaveLaterPassesOnlyTheRest() throws {
        let live = Self.silence(seconds: 0.5) + Self.voiced(seconds: 9) + Self.silence(seconds: 2.5)
        var off = StreamingOptions()
        off.settlesVolatileWords = false
        let whole = try Self.passes(over: live, options: off)
        let log = try Self.passes(over: live, options: StreamingOptions())
        #expect(Self.finals(log.events).map(\.text) == Self.finals(whole.events).map(\.text))
        try #require(Self.finals(log.events).count == 1)
        // Without settling each pass hears the whole buffer; with it, the late passes hear a few seconds.
        #expect(whole.fast.max().map { Double($0) / Self.rate > 8 } == true)
        let late = log.fast.indices.filter { Double(log.fastFed[$0]) / Self.rate > 6 }
        try #require(late.count >= 4)
        for pass in late {
            #expect(Double(log.fast[pass]) / Self.rate < 4, "pass \(pass) heard \(log.fast[pass]) samples")
            let prompt = try #require(log.fastPrompts[pass], "the settled words are the prompt")
            #expect(prompt.split(separator: " ").count >= 8)
        }
        let volatiles = log.events.compactMap { if case .volatile(let h) = $0 { h } else { nil } }
        for hypothesis in volatiles {
            let starts = hypothesis.words.map(\.startSeconds)
            #expect(zip(starts, starts.dropFirst()).allSatisfy { $0 + 0.15 < $1 }, "each word once, in order")
            #expect(hypothesis.text == hypothesis.words.map(\.word).joined().trimmingCharacters(in: .whitespaces))
        }
        // The last volatile text before the final has its words, at its times.
        let final = Self.finals(log.events)[0]
        let last = try #require(volatiles.last)
        #expect(last.words.count >= final.words.count - 2)
        for word in last.words {
            #expect(final.words.contains { abs($0.startSeconds - word.startSeconds) <= 0.021 },
                    "a volatile word at \(word.startSeconds) s the final does not have")
        }
        Self.expectInvariants(log.events)
    }

    /// A volatile pass expects what the one before it decoded when both
    /// heard the buffer from the same start (`expectedSegments`: checked,
    /// not forced); after words were confirmed at a pause or committed, or
    /// volatile words settled, the window starts elsewhere and the prompt is
    /// longer, so it expects nothing. Accurate passes (beam search) never get any.
    @Test func aVolatilePassExpectsTheLastOnesSegmentsOverTheSameBuffer() throws {
        let live = Self.silence(seconds: 0.5) + Self.voiced(seconds: 5) + Self.silence(seconds: 0.6)
            + Self.voiced(seconds: 4) + Self.silence(seconds: 2.5) + Self.voiced(seconds: 3)
        let log = try Self.passes(over: live, options: StreamingOptions())
        try #require(Self.finals(log.events).count >= 2)
        var expecting = 0, fresh = 0
        for pass in log.fast.indices {
            let bufferMoved = pass == 0 || log.fastPrompts[pass] != log.fastPrompts[pass - 1]
                || log.events[log.fastAtEvent[pass - 1]..<log.fastAtEvent[pass]].contains {
                    if case .final = $0 { true } else { false }
                }
            if bufferMoved {
                #expect(log.fastExpected[pass].isEmpty, "pass \(pass) after the buffer moved")
                fresh += 1
            } else {
                #expect(log.fastExpected[pass] == log.fastDecoded[pass - 1].segments, "pass \(pass)")
                expecting += 1
            }
        }
        #expect(fresh >= 2, "the first pass, and the first after the first final")
        #expect(expecting >= 10)
        #expect(!log.accurateExpected)
    }

    /// Finals (and the passes at a pause) in English encode the pending audio
    /// plus 15 s, volatile passes plus 5.12 s, each in whole seconds; with
    /// fitted commit windows off, or in another language or one left to
    /// detection, every accurate pass encodes a whole 30 s window.
    @Test(arguments: [("en", true), ("en", false), ("sv", true), (nil, true)] as [(String?, Bool)])
    func passesEncodeWindowsFittedToTheirAudio(language: String?, fitsCommits option: Bool) throws {
        let fitsCommits = option && language == "en"
        let live = Self.silence(seconds: 0.5) + Self.voiced(seconds: 5) + Self.silence(seconds: 1.2)
            + Self.voiced(seconds: 3) + Self.silence(seconds: 2.5)
        var options = StreamingOptions()
        options.transcription.language = language
        options.fitsCommitWindowToAudio = option
        let log = try Self.passes(over: live, options: options)
        try #require(log.accurate >= 2 && log.fast.count >= 5)
        for (samples, window) in zip(log.accurateSamples, log.accurateWindows) {
            let audioFrames = samples / 160
            #expect(window == (fitsCommits ? min(3_000, (audioFrames + 1_500 + 99) / 100 * 100) : 3_000),
                    "\(audioFrames) frames of audio in a window of \(window)")
        }
        if fitsCommits { #expect(log.accurateWindows.allSatisfy { $0 < 3_000 }, "short utterances, short windows") }
        for (samples, window) in zip(log.fast, log.fastWindows) {
            #expect(window == (samples / 160 + 512 + 99) / 100 * 100)
        }
    }

    private func firstFinalIndex(_ events: [StreamingEvent]) -> Int {
        events.firstIndex { if case .final = $0 { true } else { false } } ?? events.count
    }

    /// What a pass adds after text already final: whole segments after the
    /// boundary, the words of a segment it falls in.
    @Test func theRemainderOfAPassAfterConfirmedWords() {
        func word(_ start: Double) -> WordTiming {
            WordTiming(word: " w\(Int(start))", startSeconds: start, endSeconds: start + 0.5, probability: 1)
        }
        func segment(_ starts: [Double]) -> Segment {
            Segment(id: 0, startSeconds: starts[0], endSeconds: starts.last! + 0.5, text: "", tokens: [1, 2],
                    words: starts.map(word), averageLogProbability: 0, noSpeechProbability: 0, compressionRatio: 1,
                    temperature: 0)
        }
        let segments = [segment([0, 1]), segment([2, 3, 4])]
        #expect(StreamingPipeline.remainder(of: segments, after: 0) == segments)
        #expect(StreamingPipeline.remainder(of: segments, after: 1.6) == [segments[1]])
        let part = StreamingPipeline.remainder(of: segments, after: 2.9)
        #expect(part.map(\.text) == [" w3 w4"])
        #expect(part.first?.startSeconds == 3)
        #expect(StreamingPipeline.remainder(of: segments, after: 5).isEmpty)
        // By word ends: a pass's first word, aligned from its first frame (0 to 0.5 s here), is not
        // taken for a piece of the word before a 0.3 s lead-in; a word ending in the lead-in is.
        #expect(StreamingPipeline.remainder(of: segments, after: 0.3).first?.words.count == 1,
                "by middles, the first word looks mostly before the lead-in's end")
        let afterLeadIn = StreamingPipeline.remainder(of: segments, after: 0.3, byWordEnds: true)
        #expect(afterLeadIn.first?.words.count == 2)
        #expect(afterLeadIn.first?.words.first?.startSeconds == 0.3, "it starts no earlier than the word final before it ends")
        #expect(afterLeadIn.first?.startSeconds == 0.3)
        #expect(afterLeadIn.first?.text == "", "all its words are kept: its text is as it was")
        #expect(StreamingPipeline.remainder(of: segments, after: 0.6, byWordEnds: true).first?.words.count == 1,
                "a word ending before the boundary is a piece of one already final")
    }

    /// Until the pending speech has a volatile result, passes come every
    /// block (0.1 s) instead of every 0.5 s: a first pass that heard only a
    /// piece of a word does not hold the first result back a whole interval.
    /// Past 3 s of buffer without words, passes take the interval again.
    @Test func passesComeSoonerUntilTheFirstVolatileResult() throws {
        let live = Self.silence(seconds: 0.5) + Self.voiced(seconds: 6) + Self.silence(seconds: 2.5)
        func gaps(_ log: PassLog) -> [Double] {
            zip(log.fastFed, log.fastFed.dropFirst()).map { Double($1 - $0) / Self.rate }
        }
        let twoEmpty = try Self.passes(over: live, options: StreamingOptions()) { $0 < 2 }
        try #require(twoEmpty.fast.count >= 8)
        #expect(gaps(twoEmpty).prefix(2).allSatisfy { abs($0 - 0.1) < 1e-6 }, "\(gaps(twoEmpty))")
        #expect(gaps(twoEmpty).dropFirst(2).prefix(4).allSatisfy { $0 >= 0.5 - 1e-6 }, "\(gaps(twoEmpty))")
        let firstVolatile = try #require(twoEmpty.events.firstIndex { if case .volatile = $0 { true } else { false } })
        #expect(twoEmpty.fastAtEvent[2] <= firstVolatile, "the third pass gives the first result")

        let never = try Self.passes(over: live, options: StreamingOptions()) { _ in true }
        let early = never.fast.indices.filter { Double(never.fast[$0]) / Self.rate < 3 }
        #expect(gaps(never).prefix(early.count - 1).allSatisfy { abs($0 - 0.1) < 1e-6 })
        #expect(gaps(never).dropFirst(early.count).allSatisfy { $0 >= 0.5 - 1e-6 }, "\(gaps(never))")
    }

    /// While nothing is said, another volatile pass would decode the same
    /// speech plus silence: at most one pass runs after the speech ends.
    @Test func volatilePassesStopWhileNothingIsSaid() throws {
        var options = StreamingOptions()
        options.decodesFinalAtPause = false
        let speech = Self.silence(seconds: 0.5) + Self.voiced(seconds: 2)
        let log = try Self.passes(over: speech + Self.silence(seconds: 1.9), options: options)
        let afterSpeech = log.fastFed.filter { $0 > speech.count + Int(0.6 * Self.rate) }
        #expect(log.fast.count >= 3, "passes run while speech goes on")
        #expect(afterSpeech.count <= 1, "passes over the silence: \(afterSpeech)")
    }

    /// The workload counts every decode the pipeline makes, under the kind
    /// of pass that made it: a pass at a pause that the endpoint reuses is
    /// one pause pass and no commit; without passes at pauses, commits decode.
    @Test(arguments: [true, false])
    func theWorkloadCountsEveryPassByKind(decodesFinalAtPause: Bool) throws {
        var options = StreamingOptions()
        options.decodesFinalAtPause = decodesFinalAtPause
        let workload = StreamingWorkload()
        let audio = Self.silence(seconds: 0.5) + Self.voiced(seconds: 3) + Self.silence(seconds: 3)
            + Self.voiced(seconds: 2) + Self.silence(seconds: 0.5)
        let log = try Self.passes(over: audio, options: options, workload: workload)
        let tallies = workload.tallies
        let volatile = try #require(tallies[.volatile])
        #expect(volatile.passes == log.fast.count && volatile.passes >= 4)
        #expect(abs(volatile.audioSeconds - Double(log.fast.reduce(0, +)) / Self.rate) < 1e-9)
        let accurate = (tallies[.pause]?.passes ?? 0) + (tallies[.commit]?.passes ?? 0)
        #expect(accurate == log.accurate)
        if decodesFinalAtPause {
            // The first utterance's pass at its pause is its final; the second ends with the input, mid-pause.
            #expect(tallies[.pause]?.passes == 1)
            #expect(tallies[.commit]?.passes == 1)
        } else {
            #expect(tallies[.pause] == nil)
            #expect(tallies[.commit]?.passes == 2)
        }
        #expect(tallies[.recording] == nil)
        for tally in tallies.values { #expect(tally.wallSeconds >= 0 && tally.cpuSeconds >= 0) }
        #expect(Self.finals(log.events).count == 2)
    }

    /// Recordings go to the recording model (files' type), live audio's
    /// finals to the live one (`ComputeType.live`).
    @Test func recordingsAndLiveAudioAreDecodedByTheirOwnModels() throws {
        final class Calls: @unchecked Sendable { var live = 0, recording = 0 }
        let calls = Calls()
        var options = StreamingOptions()
        options.reportsVolatileResults = false
        var pipeline = StreamingPipeline(
            accurate: { calls.live += 1; return Self.decode($0, $1, $2, $3) }, fast: Self.decode,
            recording: { calls.recording += 1; return Self.decode($0, $1, $2, $3) }, options: options) { _ in }
        try pipeline.appendRecording(Self.voiced(seconds: 2) + Self.silence(seconds: 1))
        #expect(calls.recording == 1 && calls.live == 0)
        try pipeline.consume(Self.voiced(seconds: 2) + Self.silence(seconds: 3))
        try pipeline.finish()
        #expect(calls.recording == 1 && calls.live >= 1)
    }

    @Test func aRecordingIsOnePassOverItsAudio() throws {
        let workload = StreamingWorkload()
        var options = StreamingOptions()
        options.reportsVolatileResults = false
        var pipeline = StreamingPipeline(accurate: Self.decode, fast: Self.decode, options: options,
                                         workload: workload) { _ in }
        try pipeline.appendRecording(Self.voiced(seconds: 2) + Self.silence(seconds: 1))
        try pipeline.finish()
        #expect(workload.tallies[.recording]?.passes == 1)
        #expect(workload.tallies[.recording]?.audioSeconds == 3)
        #expect(workload.tallies.count == 1)
    }
}
