import Foundation

/// The streaming algorithm, synchronous and deterministic: audio chunks in,
/// `StreamingEvent`s out. `StreamingRecognizer` runs it on a worker.
///
/// Audio accumulates in a buffer that starts after the last committed audio.
/// While speech goes on, a fast greedy pass over the buffer gives a volatile
/// hypothesis every `volatileIntervalSeconds`. The buffer is committed with
/// the accurate model at an endpoint (silence after speech, end of input, the
/// duration limit); a buffer that grows past `bufferLimitSeconds` commits all
/// but its last segment and keeps that segment's audio, so no word is cut at
/// a seam. Every pass encodes one fixed 30 s window: work per pass does not
/// grow with utterance length, and the buffer never exceeds one window.
struct StreamingPipeline {
    static let sampleRate = 16_000.0

    let accurate: Transcriber
    let fast: Transcriber
    let options: StreamingOptions
    /// Trailing non-speech that ends an utterance once the buffer holds
    /// `shortUtteranceSeconds`; a shorter buffer waits for `longSilenceSeconds`,
    /// so short phrases are decoded with the words around them (context makes
    /// Whisper more accurate) unless the speaker really stopped.
    var endpointSilenceSeconds = 0.8
    var shortUtteranceSeconds = 8.0
    var longSilenceSeconds = 2.0
    /// Longest buffer before a partial commit (below the 30 s window).
    var bufferLimitSeconds = 24.0
    /// Speech heard before the first volatile pass: enough for a word or two.
    var firstVolatileDelaySeconds = 0.3
    /// Audio kept before detected speech so onsets are not clipped.
    var prerollSeconds = 0.6
    /// After a commit, audio kept before the next onset: the detector can take
    /// quiet speech for silence (a breathy phrase end that triggered the
    /// endpoint, a soft restart), and a pre-roll that short would drop it
    /// between commits. Decoding up to this much silence again costs little.
    var postCommitCarrySeconds = 2.0
    /// Committed text carried into the next pass's prompt (Whisper's
    /// conditioning on previous text), so casing and punctuation continue.
    private var committedTail = ""

    private var detector = SpeechActivityDetector()
    private var buffer: [Float] = []
    /// Stream sample index of `buffer[0]`.
    private var bufferStart = 0
    private var totalSamples = 0
    private var bufferHasSpeech = false
    private var speechReported = false
    private var samplesAtLastVolatile = 0
    /// Stream sample index where the current duration-limit period began.
    private var periodStart = 0
    private(set) var stoppedAtLimit = false
    /// Where the last committed range ended, in seconds.
    private var committedEndSeconds = 0.0

    /// Raised when the input closes: a volatile pass then running stops,
    /// since the final pass follows at once and would wait for it — but only
    /// once the pending audio has had a volatile result. A file handed over
    /// whole (URL requests) still reports its partial result first, and the
    /// order of events the faces report does not change.
    private let volatileInterruption: Interruption?
    /// A volatile result was reported for the audio not yet committed.
    private var reportedVolatileSinceCommit = false

    init(accurate: Transcriber, fast: Transcriber, options: StreamingOptions,
         volatileInterruption: Interruption? = nil) {
        self.accurate = accurate
        self.fast = fast
        self.options = options
        self.volatileInterruption = volatileInterruption
    }

    /// Decisions (endpoint, commit, volatile pass) are taken every block of
    /// this many samples, whatever the callers' chunk sizes: the committed
    /// text does not depend on how the audio was cut.
    static let blockSampleCount = 1_600
    private var unblocked: [Float] = []

    /// Consumes the next samples. `mayRunVolatile` is false when the caller
    /// is behind real time, to skip volatile passes and catch up.
    mutating func consume(_ chunk: [Float], mayRunVolatile: Bool = true) throws -> [StreamingEvent] {
        unblocked += chunk
        let blockCount = unblocked.count / Self.blockSampleCount
        guard blockCount > 0 else { return [] }
        var events: [StreamingEvent] = []
        for block in 0..<blockCount {
            let start = block * Self.blockSampleCount
            events += try consumeBlock(Array(unblocked[start..<(start + Self.blockSampleCount)]),
                                       mayRunVolatile: mayRunVolatile && block == blockCount - 1)
        }
        unblocked.removeFirst(blockCount * Self.blockSampleCount)
        return events
    }

    private mutating func consumeBlock(_ chunk: [Float], mayRunVolatile: Bool) throws -> [StreamingEvent] {
        guard !stoppedAtLimit, !chunk.isEmpty else { return [] }
        var events: [StreamingEvent] = []
        var remaining = chunk[...]
        while !remaining.isEmpty, !stoppedAtLimit {
            var take = remaining.count
            if let limit = options.maximumDurationSeconds {
                let limitSample = periodStart + Int(limit * Self.sampleRate)
                take = min(take, max(0, limitSample - totalSamples))
                if take == 0 {
                    events += try reachLimit()
                    continue
                }
            }
            let piece = Array(remaining.prefix(take))
            remaining = remaining.dropFirst(take)
            events += try append(piece, mayRunVolatile: mayRunVolatile && remaining.isEmpty)
        }
        if let limit = options.maximumDurationSeconds, !stoppedAtLimit,
           totalSamples >= periodStart + Int(limit * Self.sampleRate) {
            events += try reachLimit()
        }
        events.append(.progress(processedSeconds: seconds(totalSamples)))
        return events
    }

    /// End of input: commits what is pending.
    mutating func finish() throws -> [StreamingEvent] {
        var events = try consumeBlock(unblocked, mayRunVolatile: false)
        unblocked = []
        events += detectorEvents(detector.finish())
        // Commit until the buffer is empty: a pass may leave skipped speech for another.
        var passes = 0
        while !stoppedAtLimit, bufferHasSpeech, !buffer.isEmpty, passes < 4 {
            events += try commit(all: true)
            passes += 1
        }
        return events
    }

    private mutating func append(_ samples: [Float], mayRunVolatile: Bool) throws -> [StreamingEvent] {
        buffer += samples
        totalSamples += samples.count
        var events = detectorEvents(detector.process(samples))
        if !bufferHasSpeech {
            // Nothing to recognise yet: keep only a short pre-roll.
            let keep = Int((committedEndSeconds > 0 ? postCommitCarrySeconds : prerollSeconds) * Self.sampleRate)
            if buffer.count > keep {
                let drop = buffer.count - keep
                buffer.removeFirst(drop)
                bufferStart += drop
            }
            return events
        }
        let silence = detector.isSpeechActive ? 0 : detector.trailingNonSpeechSeconds
        if silence >= longSilenceSeconds || (silence >= endpointSilenceSeconds && seconds(buffer.count) >= shortUtteranceSeconds) {
            events += try commit(all: true)
        } else if seconds(buffer.count) >= bufferLimitSeconds {
            events += try commit(all: false)
        } else if options.reportsVolatileResults && mayRunVolatile
                    && seconds(totalSamples - samplesAtLastVolatile) >= options.volatileIntervalSeconds {
            samplesAtLastVolatile = totalSamples
            if let hypothesis = try volatileHypothesis() {
                events.append(.volatile(hypothesis))
                reportedVolatileSinceCommit = true
            }
        }
        return events
    }

    private mutating func detectorEvents(_ detected: [SpeechActivityDetector.Event]) -> [StreamingEvent] {
        var events: [StreamingEvent] = []
        for event in detected {
            guard case .speechStarted(let index) = event else { continue }
            // The first volatile pass comes `firstVolatileDelaySeconds` after onset, then one per interval.
            if !bufferHasSpeech {
                let early = max(0, options.volatileIntervalSeconds - firstVolatileDelaySeconds)
                samplesAtLastVolatile = totalSamples - Int(early * Self.sampleRate)
            }
            bufferHasSpeech = true
            if !speechReported {
                speechReported = true
                events.append(.speechDetected(atSeconds: seconds(index)))
            }
        }
        return events
    }

    private mutating func reachLimit() throws -> [StreamingEvent] {
        let limitSeconds = seconds(totalSamples)
        var events: [StreamingEvent] = [.limitReached(atSeconds: limitSeconds)]
        if options.rollsOverAtLimit {
            // Keep the unfinished last segment's audio so no word is cut at the seam.
            events += try commit(all: false)
            periodStart = totalSamples
        } else {
            events += try commit(all: true)
            stoppedAtLimit = true
        }
        return events
    }

    /// Transcribes the buffer with the accurate model and commits it — all of
    /// it, or all but the last segment, keeping that segment's audio.
    private mutating func commit(all: Bool) throws -> [StreamingEvent] {
        guard bufferHasSpeech, !buffer.isEmpty else { return [] }
        var transcription = options.transcription
        transcription.shortWindowPadding = options.commitPadding
        let transcript = try accurate.transcribe(samples: buffer, options: conditioned(transcription))
        var segments = transcript.segments
        var keepFromSample = buffer.count
        if !all, segments.count > 1, let last = segments.last {
            keepFromSample = min(buffer.count, max(0, Int(last.startSeconds * Self.sampleRate)))
            segments.removeLast()
        }
        // Whisper sometimes ends a window early (a lone closing timestamp) and
        // skips the speech after it. Speech past what the transcript covers
        // stays in the buffer and is decoded again, so no sentence is dropped.
        // Word times come from alignment and are tighter than segment timestamps.
        if let coveredEnd = segments.last.map({ $0.words.last?.endSeconds ?? $0.endSeconds }), coveredEnd > 0,
           let skipped = skippedSpeechStart(after: coveredEnd) {
            keepFromSample = min(keepFromSample, skipped)
        }
        var events: [StreamingEvent] = []
        if let hypothesis = hypothesis(from: segments, transcript: transcript, offsetSample: bufferStart,
                                       rangeEndSample: bufferStart + keepFromSample) {
            events.append(.final(hypothesis))
            committedTail = String((committedTail + " " + hypothesis.text).suffix(Self.promptCharacterCount))
        }
        committedEndSeconds = seconds(bufferStart + keepFromSample)
        buffer.removeFirst(keepFromSample)
        bufferStart += keepFromSample
        if buffer.isEmpty || all {
            // Audio kept after a full commit holds skipped speech still to decode.
            bufferHasSpeech = !buffer.isEmpty || detector.isSpeechActive
            if !bufferHasSpeech { speechReported = false }
        }
        samplesAtLastVolatile = totalSamples
        reportedVolatileSinceCommit = false
        return events
    }

    /// The sample where the detector hears speech well after `coveredSeconds`
    /// (the end of the decoded text), if any.
    private func skippedSpeechStart(after coveredSeconds: Double) -> Int? {
        let margin = Int((coveredSeconds + 0.5) * Self.sampleRate)
        guard margin < buffer.count else { return nil }
        let regions = SpeechActivityDetector.speechRegions(in: buffer)
        guard regions.contains(where: { $0.lowerBound >= margin && $0.count >= Int(0.3 * Self.sampleRate) }) else {
            return nil
        }
        return min(buffer.count, Int(coveredSeconds * Self.sampleRate))
    }

    /// A quick greedy pass over the buffer with the fast model.
    private func volatileHypothesis() throws -> StreamingHypothesis? {
        var transcription = options.transcription
        transcription.shortWindowPadding = .silence
        transcription.beamSize = 1
        transcription.temperatures = [0]
        transcription.alternativeCount = 1
        let transcript: Transcript
        do {
            let interruption = reportedVolatileSinceCommit ? volatileInterruption : nil
            transcript = try fast.transcribe(samples: buffer, options: conditioned(transcription),
                                             interruption: interruption)
        } catch let error as EngineError where error.code == .cancelled && volatileInterruption?.isRaised == true {
            // The input closed mid-pass: the final pass makes this one moot.
            return nil
        }
        return hypothesis(from: transcript.segments, transcript: transcript, offsetSample: bufferStart,
                          rangeEndSample: bufferStart + buffer.count)
    }

    private func hypothesis(from segments: [Segment], transcript: Transcript, offsetSample: Int,
                            rangeEndSample: Int) -> StreamingHypothesis? {
        let offset = seconds(offsetSample)
        let text = segments.map(\.text).joined().trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        let words = segments.flatMap(\.words).map { word in
            WordTiming(word: word.word, startSeconds: word.startSeconds + offset, endSeconds: word.endSeconds + offset,
                       probability: word.probability)
        }
        let alternatives = segments.count == transcript.segments.count ? transcript.alternatives : []
        return StreamingHypothesis(startSeconds: committedEndSeconds, endSeconds: seconds(rangeEndSample), text: text,
                                   words: words, alternatives: alternatives)
    }

    static let promptCharacterCount = 300

    /// Adds the tail of the committed text to the prompt, as Whisper conditions
    /// each window on the previous one.
    private func conditioned(_ transcription: TranscriptionOptions) -> TranscriptionOptions {
        guard transcription.conditionOnPreviousText, !committedTail.isEmpty else { return transcription }
        var conditioned = transcription
        let previous = committedTail.trimmingCharacters(in: .whitespaces)
        conditioned.initialPrompt = [transcription.initialPrompt, previous].compactMap { $0 }.joined(separator: " ")
        return conditioned
    }

    private func seconds(_ samples: Int) -> Double { Double(samples) / Self.sampleRate }
}
