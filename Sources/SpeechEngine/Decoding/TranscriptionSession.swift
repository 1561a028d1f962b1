import Foundation

/// Per-request decoding state over a shared model: the language, the prompt
/// history, the logit filters. One window at a time.
/// ref: whisper/transcribe.py `transcribe` (the loop body)
struct TranscriptionSession {
    let model: WhisperModel
    let options: TranscriptionOptions
    private(set) var language: String?
    private(set) var languageProbability = 1.0
    /// The initial prompt and everything decoded so far, timestamps included, for conditioning.
    private var history = PromptHistory()
    /// The capped phrases' bias lookup, or `nil` without phrases.
    private let phraseTable: PhraseBiasTable?
    var generator = SeededGenerator(seed: 0x5EED)
    /// Engine compute threads (`ComputeThreads`) for the encoder and the decoder alike.
    let threadCount: Int

    struct WindowOutcome {
        var segments: [Segment]
        var seekFrames: Int
        var alternatives: [Alternative]
    }

    let clock: StageClock?
    /// Stops decoding between steps; the caller then discards the window.
    var interruption: Interruption?
    /// Batched decoding: the last decoded chunk's tokens as sampled, the
    /// prompt of a chunk decoded again because its text skipped speech.
    var previousChunkTokens: [Int] = []
    /// The tokens of `options.forcedSegments` until the first window is decoded.
    private var forcedPrefix: [Int]
    /// The tokens of `options.expectedSegments` until the first window is decoded.
    private var expectedPrefix: [Int] = []
    /// Where the last word decoded so far ended, in audio time: a window's
    /// first word long after it follows a pause (`WordAlignment.clampingEdges`).
    private var lastSpeechSeconds = 0.0

    init(model: WhisperModel, options: TranscriptionOptions, clock: StageClock? = nil) throws {
        self.model = model
        self.options = options
        self.clock = clock
        forcedPrefix = []
        threadCount = options.threadCount ?? ComputeThreads.defaultCount
        let tokenizer = model.tokenizer
        if let code = options.language?.lowercased(), code != "auto" {
            guard tokenizer.specialTokens.language(code) != nil || (!model.isMultilingual && code == "en") else {
                throw EngineError(.unsupportedLanguage,
                                  model.isMultilingual
                                      ? "'\(code)' is not one of Whisper's 99 languages. Use an ISO 639-1 code such as en, es or ja, or auto."
                                      : "This model is English-only; use language 'en' or install whisper-base for '\(code)'.")
            }
            language = code
        } else if !model.isMultilingual {
            language = "en"
        }
        var promptText = options.initialPrompt?.trimmingCharacters(in: .whitespaces) ?? ""
        // Contextual phrases go into the prompt (spelling and vocabulary) and the
        // bias filter, both capped (`ContextualPhrases`) so they cannot drown the audio.
        let phrases = ContextualPhrases(options.phrases, tokenizer: tokenizer)
        if !phrases.glossary.isEmpty {
            promptText = promptText.isEmpty ? phrases.glossary : promptText + " " + phrases.glossary
        }
        if !promptText.isEmpty { history = PromptHistory(initialPrompt: tokenizer.encode(" " + promptText)) }
        phraseTable = phrases.biasSequences.isEmpty ? nil : PhraseBiasTable(phrases.biasSequences)
        if !options.withoutTimestamps {
            forcedPrefix = forcedTokens(of: options.forcedSegments)
            expectedPrefix = sampledTokens(of: options.expectedSegments)
        }
    }

    /// Encodes and decodes one 30 s window.
    /// - Parameters:
    ///   - views: the window as `[melCount, frameCount]` log-mel, padded; with
    ///     two (a short window padded two ways) each is decoded and the result
    ///     with the higher average log-probability is kept.
    ///   - realFrames: frames of real audio in it (the rest is padding).
    mutating func decodeWindow(_ views: [[Float]], frameCount: Int, realFrames: Int, offsetSeconds: Double,
                               firstSegmentID: Int) throws -> WindowOutcome {
        precondition(!views.isEmpty, "a window needs at least one view")
        ComputeThreads.use(threadCount)
        // The winner keeps its encoder output (3 MB); its cross-attention cache
        // (37 MB for base) is let go before the next view is encoded and
        // rebuilt only if word timing needs it, so two views peak no higher
        // than one.
        var best: (features: [Float], result: DecodingResult)?
        var bestCross: CrossAttentionCache?
        for view in views where !interruption.stopsDecoding {
            bestCross = nil
            let features = clock.measure(.encoder) { model.encoder.encode(view, frameCount: frameCount) }
            let cross = clock.measure(.crossAttentionCache) {
                model.decoder.crossAttentionCache(features: features, positionCount: frameCount / 2)
            }
            if language == nil { clock.measure(.languageDetection) { detectLanguage(cross) } }
            let startOfTranscript = startOfTranscriptSequence()
            let result = clock.measure(.decoder) { decodeWithFallback(cross: cross, startOfTranscript: startOfTranscript) }
            // The first view (Whisper's padding) stands unless another hears
            // different words and is more confident: views that differ only in
            // punctuation or case keep the reference's output.
            if let current = best?.result, result.averageLogProbability <= current.averageLogProbability
                || spokenWords(result) == spokenWords(current) {
                continue
            }
            best = (features, result)
            bestCross = cross
        }
        forcedPrefix = []
        expectedPrefix = []
        // An interruption before the first view leaves nothing; the caller throws.
        guard let (features, result) = best else { return WindowOutcome(segments: [], seekFrames: realFrames, alternatives: []) }

        if isSilence(result) { return WindowOutcome(segments: [], seekFrames: realFrames, alternatives: []) }
        let clock = clock, decoder = model.decoder
        let window = segments(of: result, realFrames: realFrames, offsetSeconds: offsetSeconds,
                              firstSegmentID: firstSegmentID) {
            bestCross ?? clock.measure(.crossAttentionCache) {
                decoder.crossAttentionCache(features: features, positionCount: frameCount / 2)
            }
        }
        // The next window is conditioned on these segments as sampled, timestamps and all (`PromptHistory`).
        history.append(segments: window.sampled,
                       resetting: !options.conditionOnPreviousText || result.temperature > 0.5)
        return WindowOutcome(segments: window.segments, seekFrames: window.seekFrames, alternatives: alternatives(of: result))
    }

    /// Whether the window is silence: no-speech probability over the
    /// threshold and (when set) average log-probability under its threshold.
    func isSilence(_ result: DecodingResult) -> Bool {
        guard let noSpeechThreshold = options.noSpeechThreshold, result.noSpeechProbability > noSpeechThreshold else {
            return false
        }
        return options.logProbThreshold.map { result.averageLogProbability < $0 } ?? true
    }

    /// A decoded window's segments in audio time (word timings aligned over
    /// `cross` when asked for), the segments' tokens as sampled, and how far to seek.
    /// - Parameter keepsTail: text after the last timestamp pair is a segment
    ///   too (no later window decodes it again).
    mutating func segments(of result: DecodingResult, realFrames: Int, offsetSeconds: Double, firstSegmentID: Int,
                           keepsTail: Bool = false,
                           cross: () -> CrossAttentionCache) -> (segments: [Segment], sampled: [[Int]], seekFrames: Int) {
        let split = SegmentBuilder(special: model.tokenizer.specialTokens)
            .split(result.tokens, windowFrames: realFrames, keepsTail: keepsTail)
        let windowSeconds = Double(realFrames) / 100
        var pieces = split.pieces.map { piece in
            (start: min(piece.start, windowSeconds), end: min(piece.end, windowSeconds),
             tokens: piece.tokens.filter { $0 < model.tokenizer.specialTokens.endOfText },
             sampled: piece.tokens)
        }
        // An instantaneous or textless segment is dropped (ref: transcribe.py "clear it").
        pieces.removeAll { $0.start == $0.end || model.tokenizer.decode($0.tokens).trimmingCharacters(in: .whitespaces).isEmpty }

        var words = WordAlignment.Alignment()
        if options.wordTimestamps {
            let cross = cross()
            words = clock.measure(.wordAlignment) {
                WordAlignment(model: model).align(textTokens: pieces.flatMap(\.tokens), startOfTranscript: startOfTranscriptSequence(),
                                                  cross: cross, frameCount: realFrames, language: language ?? "en")
            }
        }
        let segments = buildSegments(pieces, alignment: words, result: result, offsetSeconds: offsetSeconds,
                                     firstID: firstSegmentID)
        if let end = segments.last(where: { !$0.words.isEmpty })?.words.last?.endSeconds { lastSpeechSeconds = end }
        return (segments, pieces.map(\.sampled), split.seekFrames)
    }

    /// The result's n-best list; beams that differ only in timestamps read the same: one of each text.
    func alternatives(of result: DecodingResult) -> [Alternative] {
        var seenTexts: Set<String> = []
        return ([(result.tokens, result.averageLogProbability)] + result.alternatives).compactMap { candidate in
            let text = finalText(model.tokenizer.decode(candidate.0.filter { $0 < model.tokenizer.specialTokens.endOfText }))
            return seenTexts.insert(text.trimmingCharacters(in: .whitespaces)).inserted ? Alternative(text: text, score: candidate.1) : nil
        }
    }

    private func buildSegments(_ pieces: [(start: Double, end: Double, tokens: [Int], sampled: [Int])],
                               alignment: WordAlignment.Alignment, result: DecodingResult, offsetSeconds: Double,
                               firstID: Int) -> [Segment] {
        var remaining = alignment.words[...]
        var lastSpeech = lastSpeechSeconds - offsetSeconds
        return pieces.enumerated().map { index, piece in
            // Hand each segment the words made of its tokens.
            var segmentWords: [WordTiming] = []
            var tokenCount = 0
            while let aligned = remaining.first, tokenCount < piece.tokens.count {
                tokenCount += aligned.tokenCount
                var word = aligned.timing
                word.word = options.addsPunctuation ? word.word : Self.strippingPunctuation(word.word)
                if !word.word.trimmingCharacters(in: .whitespaces).isEmpty { segmentWords.append(word) }
                remaining = remaining.dropFirst()
            }
            segmentWords = WordAlignment.clampingEdges(of: segmentWords, segmentStart: piece.start, segmentEnd: piece.end,
                                                       lastSpeech: lastSpeech, medianDuration: alignment.medianDuration)
            lastSpeech = segmentWords.last?.endSeconds ?? lastSpeech
            return Segment(id: firstID + index, startSeconds: offsetSeconds + piece.start, endSeconds: offsetSeconds + piece.end,
                           text: finalText(model.tokenizer.decode(piece.tokens)), tokens: piece.tokens,
                           words: segmentWords.map { $0.shifted(by: offsetSeconds) },
                           averageLogProbability: result.averageLogProbability,
                           noSpeechProbability: result.noSpeechProbability,
                           compressionRatio: result.compressionRatio, temperature: result.temperature)
        }
    }

    private func finalText(_ text: String) -> String {
        options.addsPunctuation ? text : Self.strippingPunctuation(text)
    }

    /// Removes punctuation but keeps apostrophes inside words ("don't").
    static func strippingPunctuation(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        for (i, scalar) in scalars.enumerated() {
            if CharacterSet.punctuationCharacters.contains(scalar) || CharacterSet.symbols.contains(scalar) {
                let isInnerApostrophe = (scalar == "'" || scalar == "\u{2019}") && i > 0 && i + 1 < scalars.count
                    && CharacterSet.letters.contains(scalars[i - 1]) && CharacterSet.letters.contains(scalars[i + 1])
                if !isInnerApostrophe { continue }
            }
            result.append(scalar)
        }
        return String(result).replacingOccurrences(of: "  ", with: " ")
    }

    /// A result's text tokens (no timestamps, no end of text).
    private func textTokens(_ result: DecodingResult) -> [Int] {
        result.tokens.filter { $0 < model.tokenizer.specialTokens.endOfText }
    }

    func textTokenCount(_ result: DecodingResult) -> Int { textTokens(result).count }

    /// A result's words, lowercased, without punctuation or timestamps.
    private func spokenWords(_ result: DecodingResult) -> [Substring] {
        model.tokenizer.decode(textTokens(result)).lowercased()
            .split { !$0.isLetter && !$0.isNumber && $0 != "'" }
    }

    /// `<|startoftranscript|>`, then language and task on multilingual models.
    func startOfTranscriptSequence() -> [Int] {
        let special = model.tokenizer.specialTokens
        guard model.isMultilingual else { return [special.startOfTranscript] }
        let languageToken = special.language(language ?? "en") ?? special.language("en")!
        return [special.startOfTranscript, languageToken,
                options.task == .translate ? special.translate : special.transcribe]
    }

    /// Whisper's language detection: the language token most likely after `<|startoftranscript|>`.
    /// ref: whisper/decoding.py `detect_language`
    mutating func detectLanguage(_ cross: CrossAttentionCache) {
        let special = model.tokenizer.specialTokens
        var cache = model.decoder.makeSelfAttentionCache(sequenceCount: 1)
        var noCapture: TextDecoder.AlignmentCapture?
        let logits = model.decoder.decode([[special.startOfTranscript]], cache: &cache, cross: cross,
                                          logitPositions: nil, capture: &noCapture)
        let candidates = special.languageTokens.filter { $0 < logits.count }
        let maxLogit = candidates.map { logits[$0] }.max() ?? 0
        let total = candidates.reduce(0.0) { $0 + exp(Double(logits[$1] - maxLogit)) }
        let best = candidates.max { logits[$0] < logits[$1] } ?? special.language("en")!
        language = special.languageCode(forToken: best) ?? "en"
        languageProbability = exp(Double(logits[best] - maxLogit)) / total
    }

    /// Decodes at rising temperatures until the result is neither repetitive
    /// nor improbable. ref: whisper/transcribe.py `decode_with_fallback`
    /// - Parameter context: the prompt's context part; the session's history when nil.
    mutating func decodeWithFallback(cross: CrossAttentionCache, startOfTranscript: [Int],
                                     context: [Int]? = nil) -> DecodingResult {
        let context = context ?? promptContext()
        if !forcedPrefix.isEmpty {
            // The forced text continued at the first temperature; a continuation
            // that fails the thresholds may be the forced text's fault, so the
            // window is then decoded whole, as without it.
            let forced = decodingLoop(cross: cross, startOfTranscript: startOfTranscript, context: context,
                                      forced: forcedPrefix)
            let result = forced.run(temperature: options.temperatures[0], generator: &generator)
            if interruption.stopsDecoding || !needsFallback(result) { return result }
        }
        var loop = decodingLoop(cross: cross, startOfTranscript: startOfTranscript, context: context)
        loop.speculation = expectedPrefix
        var attempts: [DecodingResult] = []
        for temperature in options.temperatures {
            let result = loop.run(temperature: temperature, generator: &generator)
            if interruption.stopsDecoding { return result }
            attempts.append(result)
            if !needsFallback(result) { return result }
        }
        return Self.bestAttempt(attempts, options: options)
    }

    /// Segments as the decoder wrote them — opening timestamp, text, closing
    /// timestamp (Whisper's 0.02 s steps from the start of the window) — with
    /// the last one left open: no closing timestamp, no closing punctuation.
    /// A draft decoded at a pause ends its last sentence there ("a sort
    /// of…"); left open, the decoder decides how it goes on once it hears more.
    func forcedTokens(of segments: [Segment]) -> [Int] {
        guard let last = segments.last else { return [] }
        var open = last.tokens
        while let token = open.last, model.tokenizer.decode([token]).allSatisfy({ $0.isPunctuation || $0.isWhitespace }) {
            open.removeLast()
        }
        return sampledTokens(of: segments.dropLast())
            + (open.isEmpty ? [] : [timestampToken(last.startSeconds)] + open)
    }

    /// Segments as the decoder wrote them: for each, its opening timestamp,
    /// text and closing timestamp.
    func sampledTokens(of segments: some Collection<Segment>) -> [Int] {
        segments.flatMap { [timestampToken($0.startSeconds)] + $0.tokens + [timestampToken($0.endSeconds)] }
    }

    /// The timestamp token of a time from the start of the window (0.02 s steps, at most 30 s).
    private func timestampToken(_ seconds: Double) -> Int {
        model.tokenizer.specialTokens.timestampBegin
            + min(LogMelSpectrogram.windowFrameCount / 2, max(0, Int((seconds * 50).rounded())))
    }

    /// The previous text to prompt the next window with (`<|startofprev|>` and tokens), or nothing.
    func promptContext() -> [Int] { promptContext(of: history) }

    /// The prompt context `history` gives, capped at half the text context as Whisper caps it.
    func promptContext(of history: PromptHistory) -> [Int] {
        history.context(startOfPrevious: model.tokenizer.specialTokens.startOfPrevious,
                        maximumCount: model.dimensions.textContext / 2 - 1)
    }

    /// Tokens one window may sample: half the text context, as Whisper
    /// caps it; a fitted window of `fittedPositions` encoder positions that
    /// loops anyway stops at about 8 tokens per second of window (speech
    /// runs at 3 to 5, timestamps included) plus 16.
    static func sampleLimit(textContext: Int, fittedPositions: Int?) -> Int {
        guard let positions = fittedPositions else { return textContext / 2 }
        return min(textContext / 2, 16 + positions * 8 / 50)
    }

    /// The decoding loop of one window: prompt, Whisper's suppression and
    /// timestamp rules, phrase bias; `forced` tokens open the window's text.
    func decodingLoop(cross: CrossAttentionCache, startOfTranscript: [Int], context: [Int],
                      forced: [Int] = []) -> DecodingLoop {
        let special = model.tokenizer.specialTokens
        let prompt = context + startOfTranscript
            + (options.withoutTimestamps ? [special.noTimestamps] : []) + forced
        var filters = [LogitFilters.suppressBlank(model.config.suppressIdsBegin.isEmpty
                                                    ? model.tokenizer.encode(" ") + [special.endOfText]
                                                    : model.config.suppressIdsBegin),
                       LogitFilters.suppressTokens(model.config.suppressIds + [
                           special.transcribe, special.translate, special.startOfTranscript, special.startOfPrevious,
                           special.startOfLanguageModel, special.noSpeech])]
        if let phraseTable { filters.append(LogitFilters.phraseBias(phraseTable, boost: Float(options.phraseBoost))) }
        if !options.withoutTimestamps { filters.append(LogitFilters.timestampRules(special)) }
        let sampleLimit = Self.sampleLimit(textContext: model.dimensions.textContext,
                                           fittedPositions: options.fitsEncoderWindowToAudio ? cross.positionCount : nil)
        var loop = DecodingLoop(model: model, cross: cross, prompt: prompt,
                                startOfTranscriptIndex: context.count,
                                filters: filters, beamSize: options.beamSize, bestOf: options.bestOf,
                                lengthPenalty: options.lengthPenalty, maximumSampleCount: sampleLimit,
                                interruption: interruption)
        loop.forcedTokenCount = forced.count
        loop.clock = clock
        return loop
    }

    /// Whether a result fails the compression-ratio or log-probability
    /// threshold and is not silence (silence is not decoded hotter).
    func needsFallback(_ result: DecodingResult) -> Bool {
        var needsFallback = false
        if Self.isRepetitive(result, options: options) { needsFallback = true }
        if let threshold = options.logProbThreshold, result.averageLogProbability < threshold { needsFallback = true }
        if let threshold = options.noSpeechThreshold, result.noSpeechProbability > threshold,
           options.logProbThreshold.map({ result.averageLogProbability < $0 }) ?? true {
            needsFallback = false // silence: no point decoding hotter
        }
        return needsFallback
    }

    /// Whether a result's text compresses too well: it repeats itself.
    static func isRepetitive(_ result: DecodingResult, options: TranscriptionOptions) -> Bool {
        options.compressionRatioThreshold.map { result.compressionRatio > $0 } ?? false
    }

    /// Every temperature failed: keep the most probable result that is not
    /// repetitive (faster-whisper's choice), else the last one.
    static func bestAttempt(_ attempts: [DecodingResult], options: TranscriptionOptions) -> DecodingResult {
        let acceptable = attempts.filter { !isRepetitive($0, options: options) }
        return acceptable.max { $0.averageLogProbability < $1.averageLogProbability } ?? attempts.last!
    }
}
