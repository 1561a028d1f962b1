import Foundation

/// Options for live recognition: the decoding options plus what live audio
/// needs on top (volatile results, how commits are decoded).
public struct StreamingOptions: Sendable, Hashable {
    /// Decoding options (language, phrases, punctuation, alternatives, threads).
    /// Recordings (`StreamingRecognizer.appendRecording`) are decoded with
    /// these as they are, like a file; live commits override the padding
    /// with `commitPadding`.
    public var transcription: TranscriptionOptions
    /// Emit `.volatile` hypotheses for audio not yet final.
    public var reportsVolatileResults: Bool = true
    /// Seconds of audio between volatile updates while speech goes on.
    public var volatileIntervalSeconds: Double = 0.5
    /// How the accurate pass pads a live commit's audio (always under 30 s
    /// when endpoints come often). One view keeps the final result under a
    /// second after end of input; `.both` doubles that time for little gain
    /// on pieces cut at endpoints (Benchmarks/RESULTS.md). Volatile passes
    /// always decode once, with silence.
    public var commitPadding: TranscriptionOptions.ShortWindowPadding = .silence
    /// Live commits (and the passes at a pause) in English encode the
    /// pending audio plus 15 s of silence (`commitWindowMarginFrames`), not a
    /// whole 30 s window: each utterance was decoded in a window of its own,
    /// mostly padding, and that encoder was most of what finals cost. With
    /// 15 s after the last word the finals are as accurate as with the whole
    /// window on the English corpus (`speech eval --stream --commit-window`,
    /// Benchmarks/RESULTS.md). Other languages, and a language left to
    /// detection, keep whole windows: on the corpus's eight clips in other
    /// languages two came out a little worse, and that is too little audio
    /// to say more. A buffer over 15 s gets the whole window anyway.
    public var fitsCommitWindowToAudio = true
    /// Log-mel frames (10 ms each) a fitted commit window holds past the audio.
    static let commitWindowMarginFrames = 1_500
    /// The decoding options of a live commit (and of the pass at a pause):
    /// `transcription` with `commitPadding`, over a fitted window in
    /// English unless `fitsCommitWindowToAudio` is off.
    public var commitTranscription: TranscriptionOptions {
        var commit = transcription
        commit.shortWindowPadding = commitPadding
        if fitsCommitWindowToAudio, transcription.language?.lowercased() == "en" {
            commit.fitsEncoderWindowToAudio = true
            commit.fittedWindowMarginFrames = Self.commitWindowMarginFrames
        }
        return commit
    }
    /// Volatile passes encode only the buffered audio not final yet (after
    /// words confirmed at a pause, with their text as prompt) plus 5.12 s of
    /// silence, not a whole 30 s window (whisper.cpp's `audio_ctx`): several
    /// times less compute for a few seconds of speech, at a small cost in
    /// volatile accuracy (Benchmarks/RESULTS.md). Final results come from
    /// windows with more room after the audio (`fitsCommitWindowToAudio`).
    public var fitsVolatileWindowToAudio = true
    /// Each volatile pass over the same buffer as the last one expects its
    /// text: greedy decoding checks those tokens in one decoder pass and
    /// keeps them as far as it would pick them anyway, so it decodes step by
    /// step only from where it hears otherwise (the last word, cut by the
    /// end of the audio, and what was said since). The text is what the pass
    /// gives without it, to the rounding of a longer product; off, every
    /// pass decodes its text token by token (for comparison).
    public var volatilePassesExpectTheLastText = true
    /// Volatile words that two passes in a row heard the same, ending
    /// `StreamingPipeline.settleLagSeconds` or more before the audio's end,
    /// are settled: later volatile passes keep them as they are, hear only
    /// the audio after them (with their text in the prompt), and the
    /// hypothesis is the settled words plus that pass's. A volatile pass then
    /// costs the last few seconds of speech, not the whole utterance since the
    /// last pause. Settled words are still volatile: the final comes from the
    /// accurate pass over the whole utterance, as without this. Off, every
    /// volatile pass hears all the audio not final yet (for comparison).
    public var settlesVolatileWords = true
    /// When the speaker pauses, decode the pending utterance with the
    /// accurate model at once and keep the result: if the utterance ends
    /// there (an endpoint, the end of input), that result is the final, so
    /// the final does not wait for a decode after the input ends. If speech
    /// resumes, the result is dropped. With volatile results on, it is
    /// also reported as the volatile text of the pause.
    public var decodesFinalAtPause = true
    /// When the speaker goes on after that pass at a pause, its closed
    /// segments become final at once, their audio leaves the buffer (their
    /// text goes on as the prompt), and its last segment, which may go on,
    /// is the draft the next accurate pass starts from (forced, not decoded
    /// again): words are confirmed at the pause after them, and every later
    /// pass, the final after a stop mid-sentence included, hears only the
    /// speech since the last pause. Off, the pass is dropped and the
    /// utterance decoded whole again.
    public var keepsPausePassWhenSpeechResumes = true

    public init(transcription: TranscriptionOptions = TranscriptionOptions()) {
        self.transcription = transcription
    }
}

/// A hypothesis over a time range of the stream: volatile (may still change)
/// or final (committed once, never revised).
public struct StreamingHypothesis: Sendable, Hashable {
    /// Start of the range this hypothesis covers, seconds of stream time.
    public var startSeconds: Double
    /// End of the range, seconds of stream time.
    public var endSeconds: Double
    /// Text of the range, without leading space.
    public var text: String
    /// Words with times (stream time) and confidences. Volatile hypotheses
    /// carry probabilities too; faces decide what to show.
    public var words: [WordTiming]
    /// N-best alternatives of the range's text, best first (may be empty).
    public var alternatives: [Alternative]

    public init(startSeconds: Double, endSeconds: Double, text: String, words: [WordTiming],
                alternatives: [Alternative] = []) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.text = text
        self.words = words
        self.alternatives = alternatives
    }
}

/// What a streaming recognizer reports, in order.
///
/// Stream time starts at the first sample and runs across commits and gaps
/// (`appendGap` advances it without audio). Invariants: `.final` ranges are
/// disjoint, increasing and each committed once; a `.volatile` replaces the
/// previous volatile hypothesis and covers audio after the last final range;
/// `.committed(t)` never decreases; the stream ends with exactly one of
/// `.finished` or `.failed`.
public enum StreamingEvent: Sendable {
    /// The detector heard speech start at this stream time.
    case speechDetected(atSeconds: Double)
    /// The detector heard speech end at this stream time.
    case speechEnded(atSeconds: Double)
    /// The current guess for audio after the last final range.
    case volatile(StreamingHypothesis)
    /// A committed range of transcript.
    case final(StreamingHypothesis)
    /// Every result for audio before this stream time has been emitted as
    /// final: after a commit (at an endpoint, by `commit(throughSeconds:)`,
    /// of a recording) and while no speech is pending.
    case committed(throughSeconds: Double)
    /// Audio processed so far, seconds of stream time.
    case progress(processedSeconds: Double)
    /// All input was processed and every final result emitted.
    case finished
    /// Recognition stopped with an error; committed results stand.
    case failed(EngineError)
}
