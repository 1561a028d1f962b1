import Foundation

/// Options for live recognition: the decoding options plus what the Apple
/// faces need on top (partial results, the legacy one-minute limit, rolling).
public struct StreamingOptions: Sendable, Hashable {
    /// Decoding options (language, phrases, punctuation, alternatives, threads).
    public var transcription: TranscriptionOptions
    /// Emit `.volatile` hypotheses for audio not yet final.
    public var reportsVolatileResults: Bool = true
    /// Seconds of audio between volatile updates while speech goes on.
    public var volatileIntervalSeconds: Double = 0.5
    /// Stop (or roll over) after this much audio; nil for no limit.
    /// The legacy face sets 60 s for server-style tasks.
    public var maximumDurationSeconds: Double? = nil
    /// At `maximumDurationSeconds`, finalize and keep going instead of ending.
    public var rollsOverAtLimit: Bool = false
    /// How the accurate pass pads a commit's audio (always under 30 s when
    /// endpoints come often). One view keeps the final result under a second
    /// after end of input; `.both` is about 1.3 points more accurate on the
    /// English dev corpus but doubles that time (Benchmarks/RESULTS.md).
    /// Volatile passes always decode once, with silence.
    public var commitPadding: TranscriptionOptions.ShortWindowPadding = .silence

    public init(transcription: TranscriptionOptions = TranscriptionOptions()) {
        self.transcription = transcription
    }
}

/// A hypothesis over a time range of the stream: volatile (may still change)
/// or final (committed once, never revised).
public struct StreamingHypothesis: Sendable, Hashable {
    /// Start of the range this hypothesis covers, seconds from stream start.
    public var startSeconds: Double
    /// End of the range, seconds from stream start.
    public var endSeconds: Double
    /// Text of the range, without leading space.
    public var text: String
    /// Words with times (from stream start) and confidences. Volatile
    /// hypotheses carry probabilities too; faces decide what to show.
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
/// Invariants: `.final` ranges are disjoint, increasing and each committed
/// once; a `.volatile` replaces the previous volatile hypothesis and covers
/// audio after the last final range; the stream ends with exactly one of
/// `.finished` or `.failed`.
public enum StreamingEvent: Sendable {
    /// Speech started at this time (seconds from stream start), once per utterance.
    case speechDetected(atSeconds: Double)
    /// The current guess for audio after the last final range.
    case volatile(StreamingHypothesis)
    /// A committed range of transcript.
    case final(StreamingHypothesis)
    /// Audio processed so far, seconds from stream start.
    case progress(processedSeconds: Double)
    /// `maximumDurationSeconds` was reached at this time. Without rolling the
    /// recognizer stops taking audio and finishes; with rolling it continues.
    case limitReached(atSeconds: Double)
    /// All input was processed and every final result emitted.
    case finished
    /// Recognition stopped with an error; committed results stand.
    case failed(EngineError)
}
