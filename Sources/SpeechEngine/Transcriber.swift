import Foundation

/// The engine's one entry for batch recognition: audio in, `Transcript` out.
///
/// A `Transcriber` holds a loaded model (shared, immutable) and creates
/// per-request decoding state for each call, so one instance serves
/// concurrent requests.
public final class Transcriber: Sendable {
    /// The engine's sample rate: every sample array it takes is 16 kHz mono.
    public static let sampleRate = 16_000.0

    public let model: WhisperModel

    public init(model: WhisperModel) {
        self.model = model
    }

    /// Loads an installed model (see `speech assets install`).
    public convenience init(model name: ModelName = .whisperBase, store: AssetStore = .default) throws {
        self.init(model: try WhisperModel(name, store: store))
    }

    /// Decodes a file (any format libsndfile reads) and transcribes it.
    public func transcribe(file: URL, options: TranscriptionOptions = TranscriptionOptions(),
                           progress: (@Sendable (Double) -> Void)? = nil) throws -> Transcript {
        try transcribe(samples: try AudioDecoder.decode(contentsOf: file), options: options, progress: progress)
    }

    /// Transcribes 16 kHz mono samples.
    ///
    /// The data path of Whisper's `transcribe`: log-mel of the whole audio,
    /// then 30 s windows walked by timestamp seeking, each encoded once and
    /// decoded with temperature fallback, its tokens split into segments.
    /// - Parameter progress: called with the fraction of audio done, in [0, 1].
    /// - Throws: `EngineError(.unsupportedLanguage)`, `EngineError(.cancelled)` when the calling task is cancelled.
    /// - Parameter clock: accumulates time per stage when given.
    public func transcribe(samples: [Float], options: TranscriptionOptions = TranscriptionOptions(),
                           progress: (@Sendable (Double) -> Void)? = nil, clock: StageClock? = nil) throws -> Transcript {
        try transcribe(samples: samples, options: options, progress: progress, clock: clock, interruption: nil)
    }

    /// What one decoded 30 s window added, for callers that report results
    /// as decoding proceeds (the streaming recognizer's recordings).
    struct DecodedWindow {
        /// The window's segments, times from the start of the audio.
        var segments: [Segment]
        /// Audio up to here is decoded, seconds from the start.
        var throughSeconds: Double
        /// The window's n-best alternatives (the first window's are the transcript's).
        var alternatives: [Alternative]
    }

    /// `transcribe(samples:…)` that also stops, with `EngineError(.cancelled)`,
    /// when `interruption` is raised (checked between decoding steps), and
    /// hands each decoded window to `onWindow` as soon as it is decoded.
    func transcribe(samples: [Float], options: TranscriptionOptions, progress: (@Sendable (Double) -> Void)? = nil,
                    clock: StageClock? = nil, interruption: Interruption?,
                    onWindow: ((DecodedWindow) -> Void)? = nil) throws -> Transcript {
        try Self.validate(options)
        // NaN/Inf from a buffer or a float file would poison the whole window's mel.
        let samples = SampleSanitizer.sanitized(samples)
        if let batchSize = options.batchSize {
            return try transcribeInBatches(samples: samples, batchSize: batchSize, options: options, progress: progress,
                                           clock: clock, interruption: interruption, onWindow: onWindow)
        }
        var session = try TranscriptionSession(model: model, options: options, clock: clock)
        session.interruption = interruption
        let mel = clock.measure(.melSpectrogram) {
            LogMelSpectrogram(melCount: model.dimensions.melCount)
                .compute(samples, paddingSamples: LogMelSpectrogram.windowSampleCount)
        }
        let contentFrames = mel.frameCount - LogMelSpectrogram.windowFrameCount
        let frames = options.encoderWindowFrames(contentFrames: contentFrames)
        // Windows without speech are not decoded at all: Whisper invents text
        // ("Thanks for watching!") over silence and noise more often than its
        // no-speech probability catches.
        let speech = options.skipsWindowsWithoutSpeech
            ? clock.measure(.speechDetection) { SpeechActivityDetector.speechRegions(in: samples) }
                .map { ($0.lowerBound / 160)..<($0.upperBound / 160 + 1) }
            : [0..<contentFrames]
        var seekFrame = 0
        var segments: [Segment] = []
        var alternatives: [Alternative] = []
        while seekFrame < contentFrames {
            if interruption.stopsDecoding { throw EngineError(.cancelled, "Transcription was cancelled.") }
            let windowFrames = min(frames, contentFrames - seekFrame)
            guard speech.contains(where: { $0.overlaps(seekFrame..<(seekFrame + windowFrames)) }) else {
                seekFrame += windowFrames
                progress?(min(1, Double(seekFrame) / Double(max(1, contentFrames))))
                continue
            }
            let views = Self.views(of: mel, startFrame: seekFrame, frameCount: frames, contentFrames: windowFrames,
                                   holdsWholeInput: seekFrame == 0 && windowFrames == contentFrames,
                                   padding: options.shortWindowPadding)
            let outcome = try session.decodeWindow(views, frameCount: frames, realFrames: windowFrames,
                                                   offsetSeconds: Double(seekFrame) / 100, firstSegmentID: segments.count)
            segments += outcome.segments
            if alternatives.isEmpty { alternatives = outcome.alternatives }
            seekFrame += max(1, outcome.seekFrames)
            onWindow?(DecodedWindow(segments: outcome.segments,
                                    throughSeconds: Double(min(seekFrame, contentFrames)) / 100,
                                    alternatives: outcome.alternatives))
            progress?(min(1, Double(seekFrame) / Double(max(1, contentFrames))))
        }
        // A window cut short by the interruption is not a result.
        if interruption.stopsDecoding { throw EngineError(.cancelled, "Transcription was cancelled.") }
        return Self.transcript(segments, alternatives: alternatives, session: session,
                               sampleCount: samples.count, options: options)
    }

    /// The window at `startFrame` as the encoder will see it: once when it is
    /// full of audio, else padded as `padding` says. `.both` gives two views
    /// only for a clip the window holds whole; the last window of a longer
    /// recording is padded with silence (its decoding is conditioned on the
    /// text before it, and a second 30 s encoder pass would add a tenth to a
    /// two-minute file's time for a gain measured on short clips only).
    static func views(of mel: MelSpectrogram, startFrame: Int, frameCount: Int, contentFrames: Int,
                      holdsWholeInput: Bool, padding: TranscriptionOptions.ShortWindowPadding) -> [[Float]] {
        // The spectrogram was computed over 30 s of appended zeros, so its own
        // frames past the audio are already log-mel silence.
        let silence = { mel.window(startFrame: startFrame, frameCount: frameCount) }
        let zeros = { mel.window(startFrame: startFrame, frameCount: frameCount, zeroingFramesFrom: contentFrames) }
        guard contentFrames < frameCount else { return [silence()] }
        switch padding {
        case .silence: return [silence()]
        case .zeros: return [zeros()]
        case .both: return holdsWholeInput ? [silence(), zeros()] : [silence()]
        }
    }

    static func validate(_ options: TranscriptionOptions) throws {
        guard options.beamSize >= 1, options.beamSize <= 16 else {
            throw EngineError(.invalidArgument, "Beam size must be between 1 and 16 (got \(options.beamSize)).")
        }
        guard options.bestOf >= 1, !options.temperatures.isEmpty else {
            throw EngineError(.invalidArgument, "bestOf must be at least 1 and temperatures must not be empty.")
        }
        if let batchSize = options.batchSize, !(1...TranscriptionOptions.maximumBatchSize).contains(batchSize) {
            throw EngineError(.invalidArgument,
                              "Batch size must be between 1 and \(TranscriptionOptions.maximumBatchSize) (got \(batchSize)); nil decodes window by window.")
        }
        if let threads = options.threadCount, threads < 1 {
            throw EngineError(.invalidArgument, "Thread count must be at least 1 (got \(threads)).")
        }
        guard options.phraseBoost.isFinite, (0...TranscriptionOptions.maximumPhraseBoost).contains(options.phraseBoost) else {
            throw EngineError(.invalidArgument,
                              "The phrase boost must be between 0 and \(TranscriptionOptions.maximumPhraseBoost) (got \(options.phraseBoost)); the default is 2.")
        }
    }

    /// The transcript of decoded segments, both decoding paths': the text is
    /// the segments' joined, and with no n-best list it is the only one.
    static func transcript(_ segments: [Segment], alternatives: [Alternative], session: TranscriptionSession,
                           sampleCount: Int, options: TranscriptionOptions) -> Transcript {
        let text = segments.map(\.text).joined().trimmingCharacters(in: .whitespaces)
        let ranked = alternatives.isEmpty ? [Alternative(text: text, score: 0)] : alternatives
        return Transcript(segments: segments, language: session.language ?? "en",
                          languageProbability: session.languageProbability,
                          durationSeconds: Double(sampleCount) / LogMelSpectrogram.sampleRate,
                          alternatives: Array(ranked.prefix(max(1, options.alternativeCount))))
    }
}
