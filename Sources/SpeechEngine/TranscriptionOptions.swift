import Foundation

/// How to decode: a plain value, apart from the decoding logic.
/// Defaults follow faster-whisper's `transcribe` defaults.
public struct TranscriptionOptions: Sendable, Hashable {
    /// ISO 639-1 code ("en", "es", …), or nil to detect the language from the first window.
    public var language: String?
    /// Transcribe, or translate into English.
    public var task: Task = .transcribe
    /// Beam width; 1 means greedy decoding.
    public var beamSize: Int = 5
    /// Candidates sampled at non-zero temperature.
    public var bestOf: Int = 5
    /// Beam-search length penalty (nil: simple length normalisation).
    public var lengthPenalty: Double? = nil
    /// Temperatures tried in order while a window fails the thresholds below.
    /// ref: whisper/transcribe.py `temperature=(0.0, 0.2, 0.4, 0.6, 0.8, 1.0)`
    public var temperatures: [Double] = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    /// A window whose gzip compression ratio exceeds this is re-decoded hotter.
    public var compressionRatioThreshold: Double? = 2.4
    /// A window whose average log-probability is below this is re-decoded hotter.
    public var logProbThreshold: Double? = -1.0
    /// A window whose no-speech probability exceeds this (and fails the log-prob
    /// threshold) is treated as silence.
    public var noSpeechThreshold: Double? = 0.6
    /// Prompt each window with the previous window's text.
    public var conditionOnPreviousText: Bool = true
    /// Text put before the first window as context (spelling, style, names).
    public var initialPrompt: String? = nil
    /// Phrases to bias recognition toward (Apple's contextual strings).
    ///
    /// Blank phrases and case-insensitive repeats are dropped, and only the
    /// first ``maximumPhraseCount`` (100, Apple's cap) are used; later ones are
    /// ignored, not an error. As many of those as fit in 111 prompt tokens
    /// (half of Whisper's 223-token prompt budget) go into the prompt as a
    /// glossary; each biases decoding by at most its first 16 tokens. So a
    /// long list costs the same as a short one and cannot replace the audio's
    /// words: put the most important phrases first.
    public var phrases: [String] = []
    /// Extra log-probability added to tokens that continue a phrase (half of
    /// it to a phrase's first token), in 0...``maximumPhraseBoost``. A token
    /// gets the boost once, however many phrases share it.
    public var phraseBoost: Double = 2.0

    /// The most phrases a request uses (Apple caps contextual strings at 100).
    public static let maximumPhraseCount = 100
    /// The largest `phraseBoost` accepted: beyond about 10 nats a phrase
    /// token wins against any audio.
    public static let maximumPhraseBoost = 10.0
    /// Compute per-word timing and confidence.
    public var wordTimestamps: Bool = true
    /// Decode without timestamp tokens (one segment per window).
    public var withoutTimestamps: Bool = false
    /// Remove punctuation from the output text.
    public var addsPunctuation: Bool = true
    /// How many whole-transcript alternatives to return (from the beam).
    public var alternativeCount: Int = 1
    /// Skip 30 s windows in which the speech detector finds no speech.
    public var skipsWindowsWithoutSpeech: Bool = true
    /// Compute threads for this request, at most one per processor
    /// (nil: the engine default, at most 2).
    public var threadCount: Int? = nil
    /// How a window with less than 30 s of audio (a short clip, the end of a
    /// file) is filled out to the encoder's 30 s. The streaming recognizer
    /// uses ``StreamingOptions/commitPadding`` instead.
    public var shortWindowPadding: ShortWindowPadding = .both
    /// Batched decoding: nil walks the audio window by window, each window
    /// prompted with the text before it (Whisper's `transcribe`). A number
    /// splits the audio at pauses in the speech into chunks of at most 30 s
    /// and decodes up to that many chunks at once, one decoder pass for all
    /// their beams (faster-whisper's `BatchedInferencePipeline`): faster on
    /// long audio, but chunks are decoded unprompted (a chunk whose text is
    /// too short for its length is decoded once more alone, prompted with the
    /// chunk before it), and each chunk is padded with log-mel silence
    /// (`shortWindowPadding` is read only for `.zeros`). At most ``maximumBatchSize``.
    public var batchSize: Int? = nil

    /// Encode only as much of the 30 s window as the audio needs, plus
    /// ``fittedWindowMarginFrames``, when the audio is shorter than a window
    /// (whisper.cpp's `audio_ctx`): a 5 s buffer then costs the encoder a
    /// fifth of a window. Whisper was trained on whole windows, so it is a
    /// little less accurate with the 5.12 s margin the volatile passes use;
    /// live commits use it with 15 s (`StreamingOptions.fitsCommitWindowToAudio`).
    /// Internal on purpose.
    var fitsEncoderWindowToAudio = false
    /// Segments the first window's text starts with: whole segments an
    /// earlier pass decoded over the start of the same audio, with the same
    /// prompt (times from the start of the audio). Their tokens and
    /// timestamps are forced — one decoder pass reads them all — rather than
    /// decoded again token by token, so a pass over audio that grew costs the
    /// decoding of what is new. Should the continuation fail the fallback
    /// thresholds, the window is decoded again from scratch. The streaming
    /// pipeline's drafts; internal on purpose.
    var forcedSegments: [Segment] = []
    /// Segments the first window's greedy decoding is expected to start
    /// with: an earlier pass's over most of the same audio (the last
    /// volatile pass, before half a second more was heard). Unlike forced
    /// segments they do not steer the text: their tokens are checked in the
    /// prompt's decoder pass (`DecodingLoop.speculation`) and kept as far as
    /// the decoding would have picked them anyway, so a pass that hears what the
    /// last one heard costs one decoder pass for the text they share. Ignored
    /// by beam search and sampling. The streaming pipeline's volatile
    /// passes; internal on purpose.
    var expectedSegments: [Segment] = []
    /// Log-mel frames encoded past the audio in a fitted window: 5.12 s
    /// unless set (the live commits take 15 s, `StreamingOptions.commitWindowMarginFrames`).
    /// With too little silence after the last word Whisper does not know the
    /// window ended and repeats itself: with 2.56 s (whisper.cpp users'
    /// `+128` positions) the first second of a LibriSpeech clip came back as
    /// "Mr. Quill., Mr. Quill- Mr. Quill-…" from whisper-tiny.en, to the token
    /// limit; with 5.12 s no prefix of 40 cut from the corpus looped
    /// (Benchmarks/RESULTS.md). Internal on purpose.
    var fittedWindowMarginFrames = 512

    /// The encoder's window for `contentFrames` of audio: 30 s, or fitted
    /// (rounded up to whole seconds, so nearby lengths share a shape).
    func encoderWindowFrames(contentFrames: Int) -> Int {
        let whole = LogMelSpectrogram.windowFrameCount
        guard fitsEncoderWindowToAudio else { return whole }
        let fitted = (contentFrames + fittedWindowMarginFrames + 99) / 100 * 100
        return min(whole, fitted)
    }

    /// The most chunks decoded at once (memory: each holds a 37 MB
    /// cross-attention cache with whisper-base).
    public static let maximumBatchSize = 32

    public enum Task: String, Sendable, Hashable { case transcribe, translate }

    /// What fills the rest of a short window. Whisper's reference pads the
    /// audio, so the encoder sees log-mel silence; faster-whisper pads the
    /// normalised log-mel with zeros, a flat level well above silence. Neither
    /// wins every clip: on the dev corpus silence is better on read speech and
    /// zeros on short hesitant clips, by a few words each way.
    public enum ShortWindowPadding: String, Sendable, Hashable, CaseIterable {
        /// Whisper's reference: zeros in the audio, log-mel silence.
        case silence
        /// faster-whisper's: zeros in the normalised log-mel.
        case zeros
        /// A clip shorter than 30 s is decoded both ways and the result with
        /// the higher average log-probability is kept: the model's own
        /// confidence picks the view, as it picks among temperatures. When
        /// both views hear the same words (differing in punctuation or case at
        /// most), Whisper's output stays. Costs a second encoder and decoder
        /// pass on such clips; the last window of a longer recording is padded
        /// with silence and decoded once.
        case both
    }

    public init() {}

    /// Greedy decoding at temperature 0 with fallback: the fast preset.
    public static var greedy: TranscriptionOptions {
        var options = TranscriptionOptions()
        options.beamSize = 1
        return options
    }
}
