import Foundation

/// Finds where speech starts and ends in 16 kHz mono audio, streaming, from the
/// level and spectral shape of 20 ms frames, with hysteresis.
///
/// A frame is *speech-like* when its 100–4000 Hz band level is at least
/// `minimumLevelDB`, at least `noiseMarginDB` above the noise floor, and its spectrum
/// is not flat (`flatness ≤ maximumFlatness`: rules out white-ish noise). The noise
/// floor is the 20th percentile of the band levels of the last `noiseWindowSeconds`
/// (robust minimum statistics: a single quiet frame, such as a fade-in, does not drag
/// it down). Frames of digital silence (below -100 dBFS) say nothing about the noise
/// and are left out; until 5 frames (100 ms) of audio have been seen nothing counts
/// as speech. A consequence: a stream that starts in the middle of speech is detected
/// once its pauses between syllables have been seen (typically 0.1–0.5 s late),
/// instead of steady background noise being mistaken for speech.
///
/// Hysteresis: speech starts after `onsetFrameCount` consecutive speech-like frames
/// (reported at the first of them) and ends after `hangoverFrameCount` frames that
/// are not (reported at the end of the last speech-like frame).
///
/// Streaming use: feed any buffer sizes to `process(_:)`, react to the events (first
/// `.speechStarted` = "speech detected"), read `trailingNonSpeechSeconds` for
/// endpointing, and call `finish()` at end of input. For whole signals use
/// `speechRegions(in:)` or `containsSpeech(_:)`.
public struct SpeechActivityDetector: Sendable {
    /// A change of state, at a sample index counted from the first sample processed.
    public enum Event: Sendable, Equatable {
        /// Speech began at this sample.
        case speechStarted(sampleIndex: Int)
        /// Speech ended at this sample (exclusive end of the last speech-like frame).
        case speechEnded(sampleIndex: Int)

        /// The sample index the event happened at.
        public var sampleIndex: Int {
            switch self {
            case .speechStarted(let index), .speechEnded(let index): index
            }
        }

        /// The event's time in seconds from the first sample processed.
        public var seconds: Double { Double(sampleIndex) / SpeechActivityDetector.sampleRate }
    }

    /// The sample rate the detector expects, in Hz.
    public static let sampleRate = Transcriber.sampleRate
    /// Band levels below this (dBFS) are digital silence, not noise.
    static let digitalSilenceDB: Float = -100
    /// Frames of audio the noise floor needs before anything counts as speech.
    static let minimumNoiseFrameCount = 5
    /// Frames analysed per GEMM when a long buffer arrives at once.
    static let batchFrameCount = 512

    /// The thresholds and timings in use.
    public let configuration: Configuration
    /// Whether the detector is inside a speech region.
    public private(set) var isSpeechActive = false
    /// Whether speech has been detected at least once.
    public private(set) var hasDetectedSpeech = false
    /// Samples consumed so far (including a partial frame still buffered).
    public private(set) var processedSampleCount = 0

    private let analyzer: SpeechFrameAnalyzer
    private var pending: [Float] = []
    private var analysedSampleCount = 0
    private var recentLevels: [Float]
    private var recentLevelIndex = 0
    private var onsetRun = 0
    private var nonSpeechRun = 0
    private var lastSpeechEndSample = 0

    /// Creates a detector with `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.analyzer = SpeechFrameAnalyzer(frameSampleCount: configuration.frameSampleCount,
                                            sampleRate: Self.sampleRate, bandHz: configuration.bandHz)
        let windowFrames = max(1, Int(configuration.noiseWindowSeconds * Self.sampleRate)
                                  / configuration.frameSampleCount)
        self.recentLevels = [Float](repeating: .infinity, count: windowFrames)
    }

    /// Seconds since the end of the last speech-like frame (all analysed audio when
    /// none was speech-like yet). Streaming endpoints compare this with a silence timeout.
    public var trailingNonSpeechSeconds: Double {
        Double(analysedSampleCount - lastSpeechEndSample) / Self.sampleRate
    }

    /// Analyses the next samples (16 kHz mono) and returns the events they complete.
    ///
    /// Any buffer size works; a partial frame is kept for the next call. Long buffers
    /// are analysed in batches, so memory stays small whatever the input length.
    public mutating func process(_ samples: [Float]) -> [Event] {
        processedSampleCount += samples.count
        let frameSize = configuration.frameSampleCount
        var events: [Event] = []
        var offset = 0
        if !pending.isEmpty {
            offset = min(frameSize - pending.count, samples.count)
            pending.append(contentsOf: samples[0..<offset])
            guard pending.count == frameSize else { return [] }
            let features = pending.withUnsafeBufferPointer { analyzer.analyse($0, frameCount: 1) }
            pending.removeAll(keepingCapacity: true)
            events += classify(features)
        }
        let wholeFrameCount = (samples.count - offset) / frameSize
        var frame = 0
        while frame < wholeFrameCount {
            let batch = min(Self.batchFrameCount, wholeFrameCount - frame)
            let start = offset + frame * frameSize
            let features = samples.withUnsafeBufferPointer { buffer in
                analyzer.analyse(UnsafeBufferPointer(rebasing: buffer[start..<(start + batch * frameSize)]),
                                 frameCount: batch)
            }
            events += classify(features)
            frame += batch
        }
        pending.append(contentsOf: samples[(offset + wholeFrameCount * frameSize)...])
        return events
    }

    /// Runs consecutive frames' features through the noise floor and the state machine.
    private mutating func classify(_ features: [SpeechFrameAnalyzer.Features]) -> [Event] {
        var events: [Event] = []
        for frame in features {
            let start = analysedSampleCount
            analysedSampleCount += configuration.frameSampleCount
            if let event = advance(isSpeechLike: isSpeechLike(frame), frameStart: start) { events.append(event) }
        }
        return events
    }

    /// Ends the input: closes an open speech region. A partial last frame is ignored.
    public mutating func finish() -> [Event] {
        pending.removeAll()
        guard isSpeechActive else { return [] }
        isSpeechActive = false
        nonSpeechRun = 0
        return [.speechEnded(sampleIndex: lastSpeechEndSample)]
    }

    /// The speech regions of a whole signal, as sample ranges.
    public static func speechRegions(in samples: [Float],
                                     configuration: Configuration = Configuration()) -> [Range<Int>] {
        var detector = SpeechActivityDetector(configuration: configuration)
        var regions: [Range<Int>] = []
        var openStart: Int?
        for event in detector.process(samples) + detector.finish() {
            switch event {
            case .speechStarted(let index): openStart = index
            case .speechEnded(let index):
                if let start = openStart { regions.append(start..<max(start, index)) }
                openStart = nil
            }
        }
        return regions
    }

    /// Whether a whole signal holds any speech (e.g. to skip pure silence).
    public static func containsSpeech(_ samples: [Float], configuration: Configuration = Configuration()) -> Bool {
        !speechRegions(in: samples, configuration: configuration).isEmpty
    }

    /// Updates the noise floor with `frame` and classifies it.
    private mutating func isSpeechLike(_ frame: SpeechFrameAnalyzer.Features) -> Bool {
        recentLevels[recentLevelIndex] = frame.levelDB < Self.digitalSilenceDB ? .infinity : frame.levelDB
        recentLevelIndex = (recentLevelIndex + 1) % recentLevels.count
        let heard = recentLevels.filter { $0.isFinite }.sorted()
        guard heard.count >= Self.minimumNoiseFrameCount else { return false }
        let noiseFloor = heard[heard.count / 5]
        return frame.levelDB >= configuration.minimumLevelDB
            && frame.levelDB >= noiseFloor + configuration.noiseMarginDB
            && frame.flatness <= configuration.maximumFlatness
    }

    /// The hysteresis state machine: one frame in, at most one event out.
    private mutating func advance(isSpeechLike: Bool, frameStart: Int) -> Event? {
        let frameEnd = frameStart + configuration.frameSampleCount
        if !isSpeechActive {
            onsetRun = isSpeechLike ? onsetRun + 1 : 0
            guard onsetRun >= configuration.onsetFrameCount else { return nil }
            isSpeechActive = true
            hasDetectedSpeech = true
            nonSpeechRun = 0
            lastSpeechEndSample = frameEnd
            return .speechStarted(sampleIndex: frameEnd - onsetRun * configuration.frameSampleCount)
        }
        if isSpeechLike {
            nonSpeechRun = 0
            lastSpeechEndSample = frameEnd
            return nil
        }
        nonSpeechRun += 1
        guard nonSpeechRun >= configuration.hangoverFrameCount else { return nil }
        isSpeechActive = false
        onsetRun = 0
        nonSpeechRun = 0
        return .speechEnded(sampleIndex: lastSpeechEndSample)
    }
}
