import Foundation

/// Batched transcription (`TranscriptionOptions.batchSize`): the audio split
/// at pauses into chunks of at most 30 s, up to `batchSize` chunks encoded
/// and then decoded in lockstep, each chunk's segments and word timings
/// mapped back to file time.
extension Transcriber {
    /// One chunk's place in the file and its encoder input.
    struct Chunk {
        /// Samples of the file the chunk covers.
        var range: Range<Int>
        /// Its index among the file's chunks (seeds its sampling).
        var index: Int
        var startSeconds: Double { Double(range.lowerBound) / Transcriber.sampleRate }
        var seconds: Double { Double(range.count) / Transcriber.sampleRate }
    }

    /// The chunks batched decoding splits `samples` into: the speech
    /// detector's regions (or the whole audio when windows without speech
    /// are decoded too) cut and merged by `SpeechChunker`.
    static func chunks(of samples: [Float], options: TranscriptionOptions, clock: StageClock?) -> [Chunk] {
        let regions = options.skipsWindowsWithoutSpeech
            ? clock.measure(.speechDetection) { SpeechActivityDetector.speechRegions(in: samples) }
            : [0..<samples.count]
        return SpeechChunker().chunks(of: samples, speech: regions).enumerated().map { Chunk(range: $1, index: $0) }
    }

    func transcribeInBatches(samples: [Float], batchSize: Int, options: TranscriptionOptions,
                             progress: (@Sendable (Double) -> Void)?, clock: StageClock?, interruption: Interruption?,
                             onWindow: ((DecodedWindow) -> Void)?) throws -> Transcript {
        var session = try TranscriptionSession(model: model, options: options, clock: clock)
        session.interruption = interruption
        let chunks = Self.chunks(of: samples, options: options, clock: clock)
        var segments: [Segment] = []
        var alternatives: [Alternative] = []
        for start in stride(from: 0, to: chunks.count, by: batchSize) {
            if interruption.stopsDecoding { throw EngineError(.cancelled, "Transcription was cancelled.") }
            let batch = Array(chunks[start..<min(chunks.count, start + batchSize)])
            for outcome in session.decodeChunks(batch, of: samples) {
                // Segment ids run through the file; times are already file times.
                let renumbered = outcome.segments.enumerated().map { offset, segment in
                    var segment = segment
                    segment.id = segments.count + offset
                    return segment
                }
                segments += renumbered
                if alternatives.isEmpty { alternatives = outcome.alternatives }
                onWindow?(DecodedWindow(segments: renumbered, throughSeconds: outcome.throughSeconds,
                                        alternatives: outcome.alternatives))
            }
            let done = batch.last.map { Double($0.range.upperBound) / Double(max(1, samples.count)) } ?? 1
            progress?(min(1, done))
        }
        if interruption.stopsDecoding { throw EngineError(.cancelled, "Transcription was cancelled.") }
        progress?(1)
        return Self.transcript(segments, alternatives: alternatives, session: session,
                               sampleCount: samples.count, options: options)
    }
}

extension TranscriptionSession {
    /// What one chunk gave: its segments in file time.
    struct ChunkOutcome {
        var segments: [Segment]
        var alternatives: [Alternative]
        /// The chunk's end, seconds from the start of the file.
        var throughSeconds: Double
    }

    /// Encodes `chunks` one by one, decodes them in lockstep, and turns each
    /// result into segments (with word timings when asked for).
    mutating func decodeChunks(_ chunks: [Transcriber.Chunk], of samples: [Float]) -> [ChunkOutcome] {
        ComputeThreads.use(threadCount)
        let frames = LogMelSpectrogram.windowFrameCount
        var crosses: [CrossAttentionCache] = []
        var realFrames: [Int] = []
        for chunk in chunks {
            // Each chunk gets its own log-mel (its own normalisation) over 30 s
            // of appended silence, as a clip of its length would.
            let mel = clock.measure(.melSpectrogram) {
                LogMelSpectrogram(melCount: model.dimensions.melCount)
                    .compute(Array(samples[chunk.range]), paddingSamples: LogMelSpectrogram.windowSampleCount)
            }
            let content = min(frames, mel.frameCount - frames)
            let view = options.shortWindowPadding == .zeros && content < frames
                ? mel.window(startFrame: 0, frameCount: frames, zeroingFramesFrom: content)
                : mel.window(startFrame: 0, frameCount: frames)
            let features = clock.measure(.encoder) { model.encoder.encode(view, frameCount: frames) }
            crosses.append(clock.measure(.crossAttentionCache) {
                model.decoder.crossAttentionCache(features: features, positionCount: frames / 2)
            })
            realFrames.append(max(1, content))
            if language == nil { clock.measure(.languageDetection) { detectLanguage(crosses[0]) } }
        }
        var results = decodeInLockstep(crosses: crosses, seeds: chunks.map { UInt64($0.index) })
        if interruption.stopsDecoding { return [] }
        var outcomes: [ChunkOutcome] = []
        var previousSampled = previousChunkTokens
        for i in chunks.indices {
            let chunk = chunks[i]
            let through = Double(chunk.range.upperBound) / Transcriber.sampleRate
            if Self.skipsSpeech(textTokens: textTokenCount(results[i]), chunkSeconds: chunk.seconds), !isSilence(results[i]) {
                results[i] = retryWithPreviousText(results[i], cross: crosses[i], previous: previousSampled)
                if interruption.stopsDecoding { return [] }
            }
            if isSilence(results[i]) {
                outcomes.append(ChunkOutcome(segments: [], alternatives: [], throughSeconds: through))
                previousSampled = []
                continue
            }
            // Every segment of the chunk is kept: nothing after it is decoded again (no seeking).
            let window = segments(of: results[i], realFrames: realFrames[i], offsetSeconds: chunk.startSeconds,
                                  firstSegmentID: 0, keepsTail: true) { crosses[i] }
            previousSampled = Array(window.sampled.joined())
            outcomes.append(ChunkOutcome(segments: window.segments, alternatives: alternatives(of: results[i]),
                                         throughSeconds: through))
        }
        previousChunkTokens = previousSampled
        return outcomes
    }

    /// Text tokens per second of chunk under which a chunk's decode has
    /// skipped speech rather than heard a slow speaker. Read English runs at
    /// 3–4 tokens a second and a chunk is speech trimmed to ±0.4 s, so even
    /// slow, paused speech stays well above 1.
    static let minimumTokensPerSecond = 1.0
    /// Chunks shorter than this are not judged by their rate: a few words of
    /// a short chunk can be all there is.
    static let minimumJudgedSeconds = 8.0

    /// Whether a chunk's text is too short for its length: the lockstep
    /// decode, unprompted, sometimes gives one segment spanning most of the
    /// chunk with a clause of its words and stops (measured: 25 s of read
    /// speech decoded as 11 words, a 22 s sentence skipped, at an average
    /// log-probability of −0.39 and a normal compression ratio, so no
    /// fallback fired). The same audio decoded with the text before it as
    /// prompt reads through (Benchmarks/RESULTS.md, "Batched decoding").
    static func skipsSpeech(textTokens: Int, chunkSeconds: Double) -> Bool {
        chunkSeconds >= minimumJudgedSeconds && Double(textTokens) < minimumTokensPerSecond * chunkSeconds
    }

    /// Decodes a chunk whose text skipped speech once more, alone, prompted
    /// with the previous chunk's tokens as window-by-window decoding prompts
    /// each window (fallback included), and keeps whichever result says more
    /// without being repetitive.
    private mutating func retryWithPreviousText(_ first: DecodingResult, cross: CrossAttentionCache,
                                                previous: [Int]) -> DecodingResult {
        let context = promptContext(of: PromptHistory(initialPrompt: previous))
        let retry = clock.measure(.decoder) {
            decodeWithFallback(cross: cross, startOfTranscript: startOfTranscriptSequence(), context: context)
        }
        return !Self.isRepetitive(retry, options: options) && textTokenCount(retry) > textTokenCount(first) ? retry : first
    }
}
