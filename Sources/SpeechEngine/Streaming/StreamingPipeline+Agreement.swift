import Foundation

/// Commits during speech (prefix agreement), live decoding with fitted
/// encoder windows and the engine's accounting of that work, and the text
/// helpers every commit shares.
extension StreamingPipeline {
    /// An accurate pass over the pending audio while speech goes on: the
    /// words it and the previous pass agree on become final and their audio
    /// is dropped at the boundary before the first word still open; the rest
    /// is reported as volatile (it is fresher than the fast model's guess).
    mutating func agreementPass() throws {
        samplesAtLastAgreement = totalSamples
        var transcription = commitOptions()
        transcription.wordTimestamps = true
        let transcript = try decodeAccurate(transcription)
        let words = agreement.removingOverlap(shifted(transcript.words))
        let bufferEnd = seconds(bufferStart + buffer.count)
        let committed = agreement.agree(words, stableBefore: bufferEnd - agreementGuardSeconds)
        if let last = committed.last, last.endSeconds > committedEndSeconds {
            let rangeEnd = last.endSeconds
            // The audio of every word still open is kept, even where the aligner starts it before the last end.
            let keepSeconds = min(rangeEnd, agreement.pending.first?.startSeconds ?? rangeEnd)
            let keepFrom = max(bufferStart, min(Int((keepSeconds * Self.sampleRate).rounded()), bufferStart + buffer.count))
            let text = committed.map(\.word).joined().trimmingCharacters(in: .whitespaces)
            if !text.isEmpty {
                emit(.final(StreamingHypothesis(startSeconds: committedEndSeconds, endSeconds: rangeEnd, text: text,
                                                words: committed)))
                remember(text)
            }
            work.wordsCommittedByAgreement += committed.count
            settleCommit(through: rangeEnd, droppingSamples: keepFrom - bufferStart)
        } else if !committed.isEmpty {
            // Words that end before what is already final (an aligner slip) are not committed twice.
            agreement.forgetPass()
        }
        let open = agreement.pending
        if options.reportsVolatileResults, !open.isEmpty {
            let text = open.map(\.word).joined().trimmingCharacters(in: .whitespaces)
            if !text.isEmpty {
                emit(.volatile(StreamingHypothesis(startSeconds: committedEndSeconds,
                                                   endSeconds: max(committedEndSeconds, bufferEnd), text: text,
                                                   words: open)))
                reportedVolatileSinceCommit = true
                samplesAtLastVolatile = totalSamples
            }
        }
    }

    /// The accurate model over the pending audio, conditioned on the committed text.
    mutating func decodeAccurate(_ transcription: TranscriptionOptions) throws -> Transcript {
        try decodeLive(accurate, transcription, accurate: true, interruption: nil)
    }

    /// One live pass of `decode` over the buffer: conditioned on the
    /// committed text, its encoder window fitted to the pending audio
    /// (`StreamingOptions.liveEncoderWindowSeconds`), counted in `work`.
    mutating func decodeLive(_ decode: Decode, _ transcription: TranscriptionOptions, accurate: Bool,
                             interruption: Interruption?) throws -> Transcript {
        var transcription = conditioned(transcription)
        // The stream's detector heard speech in this audio with the context before it; a detector
        // run on the buffer alone, which starts mid-speech after a commit, can miss it (no quiet
        // frames to learn a noise floor from) and the window would be skipped with its words.
        if detector.isSpeechActive || lastSpeechEndSample > bufferStart {
            transcription.skipsWindowsWithoutSpeech = false
        }
        if let shortest = options.liveEncoderWindowSeconds {
            // Two seconds past the audio: Whisper reads the end of speech off the silence after it.
            let window = min(30, max(shortest, seconds(buffer.count) + 2))
            transcription.encoderWindowFrames = Int((window * 100).rounded(.up))
        }
        let encodedFrames = Transcriber.encoderFrames(transcription, sampleCount: buffer.count)
        work.record(accurate: accurate, audioSeconds: seconds(buffer.count), encodedSeconds: Double(encodedFrames) / 100,
                    afterEndOfInput: finishing)
        return try decode(buffer, transcription, interruption, nil)
    }

    /// Buffer-relative word times moved to stream time.
    func shifted(_ words: [WordTiming]) -> [WordTiming] {
        let offset = seconds(bufferStart)
        return words.map { word in
            WordTiming(word: word.word, startSeconds: word.startSeconds + offset, endSeconds: word.endSeconds + offset,
                       probability: word.probability)
        }
    }

    /// `segments` (buffer-relative) without a leading repeat of the last
    /// committed words (`PrefixAgreement.removingOverlap`); a segment left
    /// without words goes, one that lost some is spelled from the rest.
    func droppingRepeatedWords(_ segments: [Segment]) -> [Segment] {
        guard options.commitsStableWords else { return segments }
        let words = shifted(segments.flatMap(\.words))
        var repeated = words.count - agreement.removingOverlap(words).count
        guard repeated > 0 else { return segments }
        var kept: [Segment] = []
        for var segment in segments {
            if repeated > 0 {
                let dropped = min(repeated, segment.words.count)
                repeated -= dropped
                segment.words.removeFirst(dropped)
                guard let first = segment.words.first else { continue }
                segment.text = segment.words.map(\.word).joined()
                segment.startSeconds = max(segment.startSeconds, first.startSeconds)
            }
            kept.append(segment)
        }
        return kept
    }

    /// The accurate pass's options for a live commit.
    func commitOptions() -> TranscriptionOptions {
        var transcription = options.transcription
        transcription.shortWindowPadding = options.commitPadding
        return transcription
    }

    /// The hypothesis over `[from, to]` of stream time made of `segments`,
    /// whose times count from `offset`; nil when they hold no text.
    static func hypothesis(of segments: [Segment], offset: Double, from: Double, to: Double,
                           alternatives: [Alternative]) -> StreamingHypothesis? {
        let text = segments.map(\.text).joined().trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        let words = segments.flatMap(\.words).map { word in
            WordTiming(word: word.word, startSeconds: word.startSeconds + offset, endSeconds: word.endSeconds + offset,
                       probability: word.probability)
        }
        return StreamingHypothesis(startSeconds: from, endSeconds: max(from, to), text: text, words: words,
                                   alternatives: alternatives)
    }

    static let promptCharacterCount = 300

    mutating func remember(_ text: String) {
        committedTail = Self.appending(text, to: committedTail)
    }

    static func appending(_ text: String, to tail: String) -> String {
        String((tail + " " + text).suffix(promptCharacterCount))
    }

    /// Adds the tail of the committed text to the prompt, as Whisper conditions
    /// each window on the previous one.
    func conditioned(_ transcription: TranscriptionOptions) -> TranscriptionOptions {
        guard transcription.conditionOnPreviousText, !committedTail.isEmpty else { return transcription }
        var conditioned = transcription
        let previous = committedTail.trimmingCharacters(in: .whitespaces)
        conditioned.initialPrompt = [transcription.initialPrompt, previous].compactMap { $0 }.joined(separator: " ")
        return conditioned
    }

    func seconds(_ samples: Int) -> Double { Double(samples) / Self.sampleRate }
}
