import Foundation

/// The streaming algorithm, synchronous and deterministic: audio and verbs
/// in, `StreamingEvent`s out through `emit`. `StreamingRecognizer` runs it
/// on a worker thread.
///
/// Audio accumulates in a buffer that starts after the last committed audio.
/// While speech goes on, a fast greedy pass over the buffer gives a volatile
/// hypothesis every `volatileIntervalSeconds`. The buffer is committed with
/// the accurate model at an endpoint (silence after speech, end of input);
/// a buffer that grows past `bufferLimitSeconds` commits all but its last
/// segment and keeps that segment's audio, so no word is cut at a seam.
/// A commit encodes the buffer plus 15 s of silence, at most one 30 s
/// window (`StreamingOptions.fitsCommitWindowToAudio`), and the buffer never
/// exceeds one window; a
/// volatile pass encodes only the buffer after the words already final plus
/// 5.12 s (a fitted window, see `StreamingOptions.fitsVolatileWindowToAudio`),
/// since its text is replaced, and runs only when speech was heard since the
/// last one; it expects the last pass's segments (`expectedSegments`: checked
/// in one decoder pass, kept as far as it would pick them anyway), so it
/// decodes step by step only from where it hears otherwise; words two
/// volatile passes in a row heard the same well before the audio's end
/// settle, and later passes hear only the audio after them
/// (`StreamingOptions.settlesVolatileWords`). When the speaker
/// pauses, the accurate pass runs at once (`decodesFinalAtPause`): if the
/// utterance ends there, its result is the final, so the final is ready
/// when the endpoint or the end of input comes instead of decoded after it.
///
/// The verbs the faces need beside audio:
/// - `commit(throughSample:)` finalizes the words before a stream time and
///   keeps the rest volatile, with the committed text as context;
/// - `appendGap(sampleCount:)` advances stream time without audio (a short
///   gap is heard as silence, a long one ends the utterance);
/// - `appendRecording(_:)` decodes audio that is all there (a file) the way
///   `Transcriber` decodes files: both paddings, beam, fallback.
struct StreamingPipeline {
    static let sampleRate = Transcriber.sampleRate

    /// Decodes samples into a transcript; the real ones are `Transcriber`s,
    /// tests pass scripted ones so that endpointing runs without a model.
    typealias Decode = (_ samples: [Float], _ options: TranscriptionOptions, _ interruption: Interruption?,
                        _ onWindow: ((Transcriber.DecodedWindow) -> Void)?) throws -> Transcript

    /// Live audio's final results (commits, passes at a pause).
    let accurate: Decode
    let fast: Decode
    /// Recordings (`appendRecording`), decoded as files: the model a file
    /// gets from `Transcriber`, which may not be live audio's (``ComputeType/live``).
    let recording: Decode
    let options: StreamingOptions
    /// Counts and times the passes when given (`speech bench --stream`).
    let workload: StreamingWorkload?
    /// Receives every event, in order.
    let emit: (StreamingEvent) -> Void
    /// Trailing non-speech that ends an utterance once it lasts
    /// `shortUtteranceSeconds`; a shorter one waits for `longSilenceSeconds`,
    /// so short phrases are decoded with the words around them (context makes
    /// Whisper more accurate) unless the speaker really stopped.
    var endpointSilenceSeconds = 0.8
    var shortUtteranceSeconds = 8.0
    var longSilenceSeconds = 2.0
    /// Longest buffer before a partial commit (below the 30 s window).
    var bufferLimitSeconds = 24.0
    /// Speech heard before the first volatile pass: enough for a word or two.
    var firstVolatileDelaySeconds = 0.3
    /// Until the pending speech has a volatile result, passes come this often
    /// instead of every `volatileIntervalSeconds`: the first pass, 0.3 s in,
    /// often hears less than a word ("Mis…") and gives no text, and waiting
    /// a whole interval for the next made the first result come a second
    /// after onset. A pass over a second of audio is the cheapest there is;
    /// past `volatileRetryBufferSeconds` of buffer (noise the detector takes
    /// for speech, words the model does not write) passes take the interval.
    var volatileRetrySeconds = 0.1
    var volatileRetryBufferSeconds = 3.0
    /// Audio kept before detected speech so onsets are not clipped.
    var prerollSeconds = 0.6
    /// After a commit, audio kept before the next onset: the detector can take
    /// quiet speech for silence (a breathy phrase end that triggered the
    /// endpoint, a soft restart), and a pre-roll that short would drop it
    /// between commits. Decoding up to this much silence again costs little.
    var postCommitCarrySeconds = 2.0
    /// The longest gap heard as silence; a longer one ends the utterance and
    /// stream time jumps over it.
    var longestSilentGapSeconds = 2.0
    /// Trailing non-speech after which the accurate pass decodes the pending
    /// utterance ahead of its endpoint (`StreamingOptions.decodesFinalAtPause`).
    /// Above the detector's 0.3 s hangover; below the 0.8 s endpoint.
    var pauseSecondsBeforeFinalPass = 0.5
    /// The same for an utterance under `shortUtteranceSeconds`, whose endpoint
    /// waits `longSilenceSeconds`: speakers often go on after a second's
    /// pause, and each time they do, the pass made at the pause is wasted.
    var pauseSecondsBeforeFinalPassOfShortUtterance = 1.0
    /// Audio before the end of the words confirmed at a pause that stays in
    /// the buffer when theirs leaves it: word times come from attention and
    /// can end a little early, so the passes after the cut do not clip the
    /// next word's onset; a piece of a confirmed word heard there, ending in
    /// it, is dropped as already final (`remainder(of:after:byWordEnds:)`).
    var leadInSeconds = 0.2
    /// While no speech is pending, `.committed` advances in steps of this much.
    var silentCommitStepSeconds = 1.0
    /// Final text carried into the next pass's prompt (Whisper's
    /// conditioning on previous text), so casing and punctuation continue.
    private var committedTail = ""
    /// The buffer opens with `leadInSeconds` of audio whose words are final
    /// (cut at a pause): a pass's first word, which the alignment starts at
    /// the first frame however late it is said, is open unless it ends there.
    private var opensWithLeadIn = false

    private var detector = SpeechActivityDetector()
    /// Stream samples the detector did not hear (long gaps, recordings): its
    /// sample index plus this is stream time. It keeps its noise floor across them.
    private var detectorOrigin = 0
    private var buffer: [Float] = []
    /// Stream sample index of `buffer[0]`.
    private var bufferStart = 0
    /// Samples cut from the front of the buffer since the last commit (the
    /// audio of words confirmed at pauses): the utterance is the buffer and these.
    private var samplesCutSinceCommit = 0
    /// Stream time in samples: audio appended plus gaps.
    private var totalSamples = 0
    private var bufferHasSpeech = false
    private var samplesAtLastVolatile = 0
    /// Where the last committed range ended, in seconds; the next range starts here.
    private var committedEndSeconds = 0.0
    /// Whether anything was committed (the carry after a commit is longer than the pre-roll).
    private var hasCommitted = false
    /// The last `.committed` time emitted.
    private var watermarkSeconds = 0.0

    /// Raised when the input closes: a volatile pass then running stops,
    /// since the final pass follows at once and would wait for it — but only
    /// once the pending audio has had a volatile result, so the order of
    /// events the faces report does not change.
    private let volatileInterruption: Interruption?
    /// Raised on cancellation: any pass stops between decoding steps.
    private let cancellation: Interruption?
    /// A volatile result was reported for the audio not yet committed.
    private var reportedVolatileSinceCommit = false
    /// The accurate pass over `buffer[0..<sampleCount]`, decoded at a pause
    /// with the options and context a commit would use; valid while no
    /// speech started since and nothing was committed.
    private var finalAtPause: (sampleCount: Int, transcript: Transcript)?
    /// The open segment of the last pass at a pause: the speaker went on,
    /// so it is not final, but the audio it covers has not changed, and the
    /// next accurate pass starts from it (`TranscriptionOptions.forcedSegments`)
    /// instead of decoding it again. The pass's closed segments are final
    /// and their audio is cut (`confirmClosedSegments`), so the final after a
    /// stop mid-sentence hears the speech since the last pause, however long
    /// the utterance. A commit moves the buffer and drops the draft.
    private var draft: [Segment] = []
    /// The last volatile pass's segments (times from its buffer's start)
    /// and that start: the next volatile pass over the same buffer, half a
    /// second longer, expects them (`TranscriptionOptions.expectedSegments`)
    /// and decodes step by step only from where it hears otherwise.
    private var lastVolatile: (windowStart: Int, segments: [Segment])?
    /// Volatile words settled (`StreamingOptions.settlesVolatileWords`) and
    /// the last pass's words after them (the next pass's words agree with
    /// those or not), in stream time, with the buffer and final text they
    /// follow: a commit or a cut at a pause moves either, and both start over.
    private var settling: (bufferStart: Int, committedEndSeconds: Double, settled: [WordTiming],
                           unsettled: [WordTiming])?
    /// How long before the audio's end a word must end to settle: the last
    /// second or so of a pass is what the next pass hears differently.
    var settleLagSeconds = 1.5
    /// Words settle in steps of at least this much audio: each step moves the
    /// next pass's window, and a pass over a new window expects no text.
    var settleStepSeconds = 1.0

    init(accurate: @escaping Decode, fast: @escaping Decode, recording: Decode? = nil, options: StreamingOptions,
         volatileInterruption: Interruption? = nil, cancellation: Interruption? = nil,
         workload: StreamingWorkload? = nil, emit: @escaping (StreamingEvent) -> Void) {
        self.accurate = accurate
        self.fast = fast
        self.recording = recording ?? accurate
        self.options = options
        self.workload = workload
        self.volatileInterruption = volatileInterruption
        self.cancellation = cancellation
        self.emit = emit
    }

    /// A pipeline over real models, each loaded at its first pass: `live`
    /// for live audio's finals and, without `fast`, its volatile results;
    /// `recordings` for recordings.
    init(live: DeferredTranscriber, recordings: DeferredTranscriber, fast: Transcriber?, options: StreamingOptions,
         volatileInterruption: Interruption? = nil, cancellation: Interruption? = nil,
         workload: StreamingWorkload? = nil, emit: @escaping (StreamingEvent) -> Void) {
        let stages = workload?.accurateStages
        self.init(accurate: Self.decoder({ try live.transcriber() }, cancellation: cancellation, clock: stages),
                  fast: Self.decoder({ try fast ?? live.transcriber() }, cancellation: cancellation,
                                     clock: workload?.fastStages),
                  recording: Self.decoder({ try recordings.transcriber() }, cancellation: cancellation, clock: stages),
                  options: options, volatileInterruption: volatileInterruption, cancellation: cancellation,
                  workload: workload, emit: emit)
    }

    /// `transcriber()`'s transcriber as a `Decode`, stopping also when `cancellation` is raised.
    static func decoder(_ transcriber: @escaping () throws -> Transcriber, cancellation: Interruption?,
                        clock: StageClock? = nil) -> Decode {
        { samples, options, interruption, onWindow in
            try transcriber().transcribe(samples: samples, options: options, clock: clock,
                                         interruption: Interruption.either(interruption, cancellation),
                                         onWindow: onWindow)
        }
    }

    /// Decisions (endpoint, commit, volatile pass) are taken every block of
    /// this many samples, whatever the callers' chunk sizes: the committed
    /// text does not depend on how the audio was cut.
    static let blockSampleCount = 1_600
    private var unblocked: [Float] = []

    // MARK: Verbs

    /// Consumes the next samples. `mayRunVolatile` is false when the caller
    /// is behind real time, to skip volatile passes and catch up.
    mutating func consume(_ chunk: [Float], mayRunVolatile: Bool = true) throws {
        unblocked += chunk
        let blockCount = unblocked.count / Self.blockSampleCount
        guard blockCount > 0 else { return }
        for block in 0..<blockCount {
            let start = block * Self.blockSampleCount
            try consumeBlock(Array(unblocked[start..<(start + Self.blockSampleCount)]),
                             mayRunVolatile: mayRunVolatile && block == blockCount - 1)
        }
        unblocked.removeFirst(blockCount * Self.blockSampleCount)
    }

    /// Advances stream time by `sampleCount` without audio. A gap up to
    /// `longestSilentGapSeconds` is heard as silence (an utterance can go on
    /// across it); a longer one commits what is pending and jumps over it.
    mutating func appendGap(sampleCount: Int) throws {
        guard sampleCount > 0 else { return }
        if Double(sampleCount) <= longestSilentGapSeconds * Self.sampleRate {
            return try consume([Float](repeating: 0, count: sampleCount), mayRunVolatile: false)
        }
        try flushUnblocked()
        detectorEvents(detector.finish())
        try commitPending()
        skipUnheard(sampleCount)
    }

    /// Finalizes the words heard before stream sample `cut`: they come out
    /// as one `.final` ending at the cut (or at the end of a word the cut
    /// falls in, when most of it came before), and `.committed` reports the
    /// cut. Later audio stays pending and volatile, decoded again with the
    /// committed text as its context. Audio not appended yet is not waited for.
    mutating func commit(throughSample cut: Int) throws {
        try flushUnblocked()
        let cutSample = min(cut, totalSamples)
        let cutSeconds = seconds(cutSample)
        guard cutSeconds > committedEndSeconds else { return advanceWatermark(to: cutSeconds, force: true) }
        guard bufferHasSpeech, !buffer.isEmpty, cutSample > bufferStart else {
            committedEndSeconds = max(committedEndSeconds, cutSeconds)
            return advanceWatermark(to: cutSeconds, force: true)
        }
        // Decode everything pending: the audio after the cut is context for the words before it.
        var transcription = options.commitTranscription
        transcription.wordTimestamps = true
        let transcript = try decodeBuffer(transcription, as: .commit)
        let offset = seconds(bufferStart)
        let words = open(transcript.segments).flatMap(\.words).map { $0.shifted(by: offset) }
        // A word belongs before the cut when most of it is.
        let committed = words.prefix { ($0.startSeconds + $0.endSeconds) / 2 <= cutSeconds }
        let rest = words.dropFirst(committed.count)
        let rangeEnd = max(cutSeconds, committed.last?.endSeconds ?? cutSeconds)
        // Keep the audio of every word not committed, even where it starts before the cut.
        var keepFrom = Int((rangeEnd * Self.sampleRate).rounded())
        if let next = rest.first { keepFrom = min(keepFrom, Int((next.startSeconds * Self.sampleRate).rounded())) }
        keepFrom = max(bufferStart, min(keepFrom, bufferStart + buffer.count))
        let text = committed.map(\.word).joined().trimmingCharacters(in: .whitespaces)
        if !text.isEmpty {
            let hypothesis = StreamingHypothesis(startSeconds: committedEndSeconds, endSeconds: rangeEnd, text: text,
                                                 words: Array(committed),
                                                 alternatives: rest.isEmpty ? transcript.alternatives : [])
            emit(.final(hypothesis))
            remember(text)
        }
        settleCommit(through: rangeEnd, droppingSamples: keepFrom - bufferStart)
        bufferHasSpeech = !rest.isEmpty || detector.isSpeechActive
    }

    /// Decodes `samples` — audio that is all there, such as a file — as
    /// `Transcriber` decodes a file (the options' own padding, beam and
    /// fallback), after committing what is pending. Each decoded window
    /// comes out as a `.final` at once — announced by a `.volatile` of the
    /// same text when volatile results are on, so clients that show volatile
    /// text see the file's progress the way live audio shows it; stream
    /// time advances by the recording's length.
    mutating func appendRecording(_ samples: [Float]) throws {
        try flushUnblocked()
        detectorEvents(detector.finish())
        try commitPending()
        let start = totalSamples
        let offset = seconds(start)
        for region in SpeechActivityDetector.speechRegions(in: samples) {
            emit(.speechDetected(atSeconds: offset + seconds(region.lowerBound)))
            emit(.speechEnded(atSeconds: offset + seconds(region.upperBound)))
        }
        var rangeStart = max(committedEndSeconds, offset)
        var tail = committedTail
        let emit = self.emit
        let reportsVolatile = options.reportsVolatileResults
        let recording = self.recording
        let transcription = conditioned(options.transcription)
        _ = try workload.measure(.recording, sampleCount: samples.count) {
            try recording(samples, transcription, nil) { window in
                let through = offset + window.throughSeconds
                if let hypothesis = Self.hypothesis(of: window.segments, offset: offset, from: rangeStart, to: through,
                                                    alternatives: window.alternatives) {
                    if reportsVolatile { emit(.volatile(hypothesis)) }
                    emit(.final(hypothesis))
                    tail = Self.appending(hypothesis.text, to: tail)
                }
                emit(.committed(throughSeconds: through))
                emit(.progress(processedSeconds: through))
                rangeStart = through
            }
        }
        committedTail = tail
        committedEndSeconds = seconds(totalSamples + samples.count)
        hasCommitted = true
        skipUnheard(samples.count)
        emit(.progress(processedSeconds: seconds(totalSamples)))
    }

    /// End of input: commits what is pending.
    mutating func finish() throws {
        try flushUnblocked()
        detectorEvents(detector.finish())
        try commitPending()
        advanceWatermark(to: seconds(totalSamples), force: true)
    }

    // MARK: Live audio

    private mutating func flushUnblocked() throws {
        guard !unblocked.isEmpty else { return }
        let rest = unblocked
        unblocked = []
        try consumeBlock(rest, mayRunVolatile: false)
    }

    /// Commits until the buffer is empty: a pass may leave skipped speech for another.
    private mutating func commitPending() throws {
        var passes = 0
        while bufferHasSpeech, !buffer.isEmpty, passes < 4 {
            try commit(all: true)
            passes += 1
        }
    }

    private mutating func consumeBlock(_ samples: [Float], mayRunVolatile: Bool) throws {
        guard !samples.isEmpty else { return }
        buffer += samples
        totalSamples += samples.count
        detectorEvents(detector.process(samples))
        if !bufferHasSpeech {
            // Nothing to recognise yet: keep only a short pre-roll.
            let keep = Int((hasCommitted ? postCommitCarrySeconds : prerollSeconds) * Self.sampleRate)
            if buffer.count > keep {
                let drop = buffer.count - keep
                buffer.removeFirst(drop)
                bufferStart += drop
                committedEndSeconds = max(committedEndSeconds, seconds(bufferStart))
                advanceWatermark(to: committedEndSeconds, force: false)
            }
        } else {
            let silence = detector.isSpeechActive ? 0 : detector.trailingNonSpeechSeconds
            let isShort = seconds(samplesCutSinceCommit + buffer.count) < shortUtteranceSeconds
            if silence >= longSilenceSeconds || (silence >= endpointSilenceSeconds && !isShort) {
                try commit(all: true)
            } else if seconds(buffer.count) >= bufferLimitSeconds {
                try commit(all: false)
            } else if options.decodesFinalAtPause && mayRunVolatile && finalAtPause == nil
                        && silence >= (isShort ? pauseSecondsBeforeFinalPassOfShortUtterance : pauseSecondsBeforeFinalPass) {
                try decodeFinalAtPause()
            } else if options.reportsVolatileResults && mayRunVolatile
                        && seconds(totalSamples - samplesAtLastVolatile) >= volatileIntervalSeconds
                        && heardSpeechSinceLastVolatilePass {
                samplesAtLastVolatile = totalSamples
                if let hypothesis = try volatileHypothesis() {
                    emit(.volatile(hypothesis))
                    reportedVolatileSinceCommit = true
                }
            }
        }
        emit(.progress(processedSeconds: seconds(totalSamples)))
    }

    /// Seconds from one volatile pass to the next: shorter while the pending
    /// speech has no volatile result yet.
    private var volatileIntervalSeconds: Double {
        reportedVolatileSinceCommit || seconds(buffer.count) >= volatileRetryBufferSeconds
            ? options.volatileIntervalSeconds : min(volatileRetrySeconds, options.volatileIntervalSeconds)
    }

    /// Whether the detector heard speech after the last volatile pass began:
    /// a pass over the same speech plus silence would give the same text.
    private var heardSpeechSinceLastVolatilePass: Bool {
        detector.isSpeechActive
            || detector.trailingNonSpeechSeconds < seconds(totalSamples - samplesAtLastVolatile)
    }

    /// The accurate pass over the pending utterance at a pause, kept for
    /// the commit that ends it (and shown as its volatile text). It is not
    /// interrupted when the input closes: the final pass would redo it.
    private mutating func decodeFinalAtPause() throws {
        let transcript = try decodeBuffer(options.commitTranscription, as: .pause)
        finalAtPause = (buffer.count, transcript)
        if options.keepsPausePassWhenSpeechResumes { draft = transcript.segments }
        samplesAtLastVolatile = totalSamples
        guard options.reportsVolatileResults,
              let hypothesis = Self.hypothesis(of: open(transcript.segments), offset: seconds(bufferStart),
                                               from: committedEndSeconds, to: seconds(bufferStart + buffer.count),
                                               alternatives: []) else { return }
        emit(.volatile(hypothesis))
        reportedVolatileSinceCommit = true
    }

    private mutating func detectorEvents(_ detected: [SpeechActivityDetector.Event]) {
        for event in detected {
            switch event {
            case .speechStarted(let index):
                // The speaker went on: the pass at the pause is not the final, but its closed segments are.
                if let paused = finalAtPause {
                    finalAtPause = nil
                    if options.keepsPausePassWhenSpeechResumes { confirmClosedSegments(of: paused.transcript) }
                }
                // The first volatile pass comes `firstVolatileDelaySeconds` after onset, then one per interval.
                if !bufferHasSpeech {
                    let early = volatileIntervalSeconds - firstVolatileDelaySeconds
                    samplesAtLastVolatile = totalSamples - Int((early * Self.sampleRate).rounded())
                }
                bufferHasSpeech = true
                emit(.speechDetected(atSeconds: seconds(detectorOrigin + index)))
            case .speechEnded(let index):
                emit(.speechEnded(atSeconds: seconds(detectorOrigin + index)))
            }
        }
    }

    /// Emits `.committed` when the watermark moved (by a step, unless forced).
    private mutating func advanceWatermark(to time: Double, force: Bool) {
        guard time > watermarkSeconds, force || time - watermarkSeconds >= silentCommitStepSeconds else { return }
        watermarkSeconds = time
        emit(.committed(throughSeconds: time))
    }

    /// Transcribes the buffer with the accurate model and commits it — all of
    /// it, or all but the last segment, keeping that segment's audio.
    private mutating func commit(all: Bool) throws {
        guard bufferHasSpeech, !buffer.isEmpty else { return }
        // Only silence came after a pass at a pause: it decoded this utterance already.
        let transcript: Transcript
        if all, let decoded = finalAtPause, decoded.sampleCount <= buffer.count {
            transcript = decoded.transcript
        } else {
            transcript = try decodeBuffer(options.commitTranscription, as: .commit)
        }
        var segments = open(transcript.segments)
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
        let rangeEnd = seconds(bufferStart + keepFromSample)
        if let hypothesis = Self.hypothesis(of: segments, offset: seconds(bufferStart), from: committedEndSeconds,
                                            to: rangeEnd,
                                            alternatives: segments.count == transcript.segments.count
                                                ? transcript.alternatives : []) {
            emit(.final(hypothesis))
            remember(hypothesis.text)
        }
        settleCommit(through: rangeEnd, droppingSamples: keepFromSample)
        if buffer.isEmpty || all {
            // Audio kept after a full commit holds skipped speech still to decode.
            bufferHasSpeech = !buffer.isEmpty || detector.isSpeechActive
        }
    }

    /// The speaker went on after a pass at a pause: that pass's segments but
    /// the last are final now, and the last, which may go on, stays pending.
    /// Their audio leaves the buffer but for a lead-in, their text joins the
    /// prompt, and the open segment is the draft of the next pass, which
    /// forces it unchanged and hears the rest. Words are confirmed at the
    /// pause after them, not when the utterance ends, and every later pass —
    /// the final after a stop included — costs the speech since the pause.
    private mutating func confirmClosedSegments(of transcript: Transcript) {
        guard transcript.segments.count > 1, let openSegment = transcript.segments.last else { return }
        let closed = open(Array(transcript.segments.dropLast()))
        guard let lastClosed = closed.last else { return }
        let through = seconds(bufferStart) + (lastClosed.words.last?.endSeconds ?? lastClosed.endSeconds)
        guard through > committedEndSeconds,
              let hypothesis = Self.hypothesis(of: closed, offset: seconds(bufferStart), from: committedEndSeconds,
                                               to: through, alternatives: []) else { return }
        emit(.final(hypothesis))
        remember(hypothesis.text)
        committedEndSeconds = through
        advanceWatermark(to: through, force: true)
        // A final replaces the volatile text; the open segment is shown again at once, not at the next pass.
        if options.reportsVolatileResults,
           let shown = Self.hypothesis(of: open([openSegment]), offset: seconds(bufferStart), from: through,
                                       to: seconds(bufferStart + buffer.count), alternatives: []) {
            emit(.volatile(shown))
        }
        let cut = min(buffer.count, max(0, Int(((through - leadInSeconds) * Self.sampleRate).rounded()) - bufferStart))
        buffer.removeFirst(cut)
        bufferStart += cut
        samplesCutSinceCommit += cut
        opensWithLeadIn = true
        // Forced as the pass decoded it: its tokens and opening timestamp, moved to the new buffer start.
        draft = [openSegment.shifted(by: -seconds(cut))]
    }

    /// Buffer seconds already final: a lead-in of words confirmed at a
    /// pause, or audio before the cut of `commit(throughSample:)` it kept.
    private var confirmedInBufferSeconds: Double { max(0, committedEndSeconds - seconds(bufferStart)) }

    /// The part of a pass over the buffer that is not final yet.
    private func open(_ segments: [Segment]) -> [Segment] {
        Self.remainder(of: segments, after: confirmedInBufferSeconds, byWordEnds: opensWithLeadIn)
    }

    /// The part of `segments` (times from the buffer's start) after `boundary`:
    /// whole segments, or the words of one the boundary falls in (a word
    /// belongs where most of it is). With `byWordEnds`, a word is after the
    /// boundary when it ends after it, and starts there at the earliest: for
    /// a pass that starts at the boundary less a lead-in, whose first word the
    /// alignment starts at the first frame however late it is said (a short
    /// one would look mostly before, and would overlap the word final there).
    static func remainder(of segments: [Segment], after boundary: Double, byWordEnds: Bool = false) -> [Segment] {
        guard boundary > 0 else { return segments }
        func side(_ start: Double, _ end: Double) -> Double { byWordEnds ? end : (start + end) / 2 }
        return segments.compactMap { segment in
            guard !segment.words.isEmpty else {
                return side(segment.startSeconds, segment.endSeconds) > boundary ? segment : nil
            }
            var kept = segment.words.filter { side($0.startSeconds, $0.endSeconds) > boundary }
            guard !kept.isEmpty else { return nil }
            if byWordEnds {
                for index in kept.indices { kept[index].startSeconds = max(kept[index].startSeconds, boundary) }
            }
            guard kept != segment.words else { return segment }
            var part = segment
            part.startSeconds = max(segment.startSeconds, kept[0].startSeconds)
            if kept.count < segment.words.count { part.text = kept.map(\.word).joined() }
            part.words = kept
            return part
        }
    }

    /// What every commit leaves behind: results final through `rangeEnd`,
    /// the committed audio dropped from the buffer, the volatile clock reset.
    private mutating func settleCommit(through rangeEnd: Double, droppingSamples count: Int) {
        committedEndSeconds = rangeEnd
        hasCommitted = true
        buffer.removeFirst(count)
        bufferStart += count
        samplesAtLastVolatile = totalSamples
        reportedVolatileSinceCommit = false
        finalAtPause = nil
        draft = []
        opensWithLeadIn = false
        samplesCutSinceCommit = 0
        advanceWatermark(to: rangeEnd, force: true)
    }

    /// Moves stream time over `sampleCount` samples the live path did not
    /// hear (a long gap, a recording decoded apart): nothing pending, the
    /// detector's clock shifted, everything before the new end final.
    private mutating func skipUnheard(_ sampleCount: Int) {
        totalSamples += sampleCount
        buffer = []
        bufferStart = totalSamples
        bufferHasSpeech = false
        finalAtPause = nil
        draft = []
        opensWithLeadIn = false
        samplesCutSinceCommit = 0
        detectorOrigin += sampleCount
        advanceWatermark(to: seconds(totalSamples), force: true)
    }

    /// The accurate pass over the whole buffer, with the committed text as
    /// context, starting from the draft when there is one.
    private func decodeBuffer(_ transcription: TranscriptionOptions, as pass: StreamingWorkload.Pass) throws
        -> Transcript {
        var transcription = conditioned(transcription)
        transcription.forcedSegments = draft
        return try workload.measure(pass, sampleCount: buffer.count) { try accurate(buffer, transcription, nil, nil) }
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

    /// A quick greedy pass with the fast model over the audio not final yet
    /// — or, once words settled, over the audio after them.
    private mutating func volatileHypothesis() throws -> StreamingHypothesis? {
        var transcription = options.transcription
        transcription.shortWindowPadding = .silence
        transcription.beamSize = 1
        transcription.temperatures = [0]
        transcription.alternativeCount = 1
        // Volatile text is replaced within a second; encoding 30 s for each
        // half-second update was most of what streaming cost.
        transcription.fitsEncoderWindowToAudio = options.fitsVolatileWindowToAudio
        let settledWords = currentSettling.settled
        let settledEnd = settledWords.last.map(\.endSeconds)
        // The window opens a lead-in before the settled words end, as after a cut at a pause.
        let windowOffset = settledEnd.map {
            min(buffer.count, max(0, Int((($0 - leadInSeconds) * Self.sampleRate).rounded()) - bufferStart))
        } ?? 0
        let windowStart = bufferStart + windowOffset
        // A pass over a window that moved since (a commit, a cut, words settled) has another prompt and times.
        if options.volatilePassesExpectTheLastText, let last = lastVolatile, last.windowStart == windowStart {
            transcription.expectedSegments = last.segments
        }
        let audio = windowOffset == 0 ? buffer : Array(buffer[windowOffset...])
        let settledText = settledWords.map(\.word).joined()
        let transcript: Transcript
        do {
            let interruption = reportedVolatileSinceCommit ? volatileInterruption : nil
            transcript = try workload.measure(.volatile, sampleCount: audio.count) {
                try fast(audio, conditioned(transcription, then: settledText), interruption, nil)
            }
        } catch let error as EngineError where error.code == .cancelled && volatileInterruption?.isRaised == true
                    && cancellation?.isRaised != true {
            // The input closed mid-pass: the final pass makes this one moot.
            return nil
        }
        lastVolatile = (windowStart, transcript.segments)
        let heard = settledEnd.map { Self.remainder(of: transcript.segments, after: $0 - seconds(windowStart),
                                                    byWordEnds: true) } ?? open(transcript.segments)
        let words = heard.flatMap(\.words).map { $0.shifted(by: seconds(windowStart)) }
        if options.settlesVolatileWords { settle(settledWords, then: words) }
        guard !settledWords.isEmpty else {
            return Self.hypothesis(of: heard, offset: seconds(windowStart), from: committedEndSeconds,
                                   to: seconds(bufferStart + buffer.count), alternatives: [])
        }
        let all = settledWords + words
        return StreamingHypothesis(startSeconds: committedEndSeconds,
                                   endSeconds: max(committedEndSeconds, seconds(bufferStart + buffer.count)),
                                   text: all.map(\.word).joined().trimmingCharacters(in: .whitespaces), words: all)
    }

    /// `settling`'s words, while the buffer and the final text are those they followed.
    private var currentSettling: (settled: [WordTiming], unsettled: [WordTiming]) {
        guard options.settlesVolatileWords, let settling, settling.bufferStart == bufferStart,
              settling.committedEndSeconds == committedEndSeconds else { return ([], []) }
        return (settling.settled, settling.unsettled)
    }

    /// Settles the words at the start of `words` (this pass's, after the
    /// settled ones) that the last pass heard the same (local agreement of
    /// two passes) and that end `settleLagSeconds` before the audio's end,
    /// once they reach `settleStepSeconds` past what is settled.
    private mutating func settle(_ settledWords: [WordTiming], then words: [WordTiming]) {
        let previous = currentSettling.unsettled
        let latest = seconds(bufferStart + buffer.count) - settleLagSeconds
        let agreed = zip(previous, words).prefix { Self.sameWord($0, $1) && $1.endSeconds <= latest }.map(\.1)
        let from = settledWords.last?.endSeconds ?? committedEndSeconds
        if let last = agreed.last, last.endSeconds - from >= settleStepSeconds {
            settling = (bufferStart, committedEndSeconds, settledWords + agreed, Array(words.dropFirst(agreed.count)))
        } else {
            settling = (bufferStart, committedEndSeconds, settledWords, words)
        }
    }

    /// Two passes heard the same word: the same letters and digits, whatever
    /// the case and punctuation (a comma comes and goes as the sentence goes
    /// on), at about the same time.
    private static func sameWord(_ a: WordTiming, _ b: WordTiming) -> Bool {
        func letters(_ word: String) -> String { String(word.lowercased().filter { $0.isLetter || $0.isNumber }) }
        return letters(a.word) == letters(b.word) && !letters(a.word).isEmpty
            && abs(a.startSeconds - b.startSeconds) < 0.5
    }

    /// The hypothesis over `[from, to]` of stream time made of `segments`,
    /// whose times count from `offset`; nil when they hold no text.
    private static func hypothesis(of segments: [Segment], offset: Double, from: Double, to: Double,
                                   alternatives: [Alternative]) -> StreamingHypothesis? {
        let text = segments.map(\.text).joined().trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        let words = segments.flatMap(\.words).map { $0.shifted(by: offset) }
        return StreamingHypothesis(startSeconds: from, endSeconds: max(from, to), text: text, words: words,
                                   alternatives: alternatives)
    }

    static let promptCharacterCount = 300

    /// Keeps the tail of the final text for the prompts of the passes after it.
    private mutating func remember(_ text: String) {
        committedTail = Self.appending(text, to: committedTail)
    }

    private static func appending(_ text: String, to tail: String) -> String {
        String((tail + " " + text).suffix(promptCharacterCount))
    }

    /// Adds the tail of the final text to the prompt, as Whisper conditions
    /// each window on the previous one.
    /// `then` is text after the final text (settled volatile words).
    private func conditioned(_ transcription: TranscriptionOptions, then: String = "") -> TranscriptionOptions {
        let tail = then.isEmpty ? committedTail
            : Self.appending(then.trimmingCharacters(in: .whitespaces), to: committedTail)
        guard transcription.conditionOnPreviousText, !tail.isEmpty else { return transcription }
        var conditioned = transcription
        let previous = tail.trimmingCharacters(in: .whitespaces)
        conditioned.initialPrompt = [transcription.initialPrompt, previous].compactMap { $0 }.joined(separator: " ")
        return conditioned
    }

    private func seconds(_ samples: Int) -> Double { Double(samples) / Self.sampleRate }
}
