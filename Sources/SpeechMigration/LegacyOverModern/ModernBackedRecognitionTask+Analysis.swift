import Foundation
import Speech

extension ModernBackedRecognitionTask {
    /// Starts the analysis in the background.
    func start(locale: Locale) {
        lock.withLock { currentState = .running }
        worker = Task { [self] in await run(locale: locale) }
    }

    /// Sets up the transcriber and analyzer, feeds the request's audio,
    /// finalizes, and delivers the final result or the error.
    private func run(locale: Locale) async {
        let keepsPunctuation = request.addsPunctuation
        do {
            guard let locale = await SpeechTranscriber.supportedLocale(equivalentTo: locale) else {
                throw SFSpeechError(.cannotAllocateUnsupportedLocale, userInfo: [
                    NSLocalizedDescriptionKey: "SpeechTranscriber does not support \(locale.identifier)."])
            }
            let transcriber = SpeechTranscriber(
                locale: locale, transcriptionOptions: [],
                reportingOptions: request.shouldReportPartialResults
                    ? [.volatileResults, .alternativeTranscriptions] : [.alternativeTranscriptions],
                attributeOptions: [.audioTimeRange, .transcriptionConfidence])
            if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
                try await installation.downloadAndInstall()
            }
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            if !request.contextualStrings.isEmpty {
                let context = AnalysisContext()
                context.contextualStrings[.general] = request.contextualStrings
                try await analyzer.setContext(context)
            }
            guard lock.withLock({ () -> Bool in
                self.analyzer = analyzer
                return !cancelled
            }) else { return }
            let consumer = Task { try await self.consume(transcriber.results, keepingPunctuation: keepsPunctuation) }
            let end = try await request.analyze(with: analyzer)
            markFinishedReading()
            if let end {
                try await analyzer.finalizeAndFinish(through: end)
            } else {
                await analyzer.cancelAndFinishNow()
            }
            let phrases = try await consumer.value
            try deliverFinal(phrases, keepingPunctuation: keepsPunctuation)
        } catch {
            fail(error)
        }
    }

    /// Reads the transcriber's results, delivering detected speech and
    /// cumulative partial results; returns the final phrases in order.
    private func consume(_ results: some AsyncSequence<SpeechTranscriber.Result, any Error>,
                         keepingPunctuation: Bool) async throws -> [SpeechTranscriber.Result] {
        var finals: [SpeechTranscriber.Result] = []
        var detected = false
        for try await result in results {
            var volatile: SpeechTranscriber.Result?
            if result.isFinal { finals.append(result) } else { volatile = result }
            let words = (finals + [volatile].compactMap { $0 }).flatMap {
                AttributedTranscript.words(in: $0.text, keepingPunctuation: keepingPunctuation)
            }
            guard !words.isEmpty else { continue }
            if !detected {
                detected = true
                deliver(terminal: false) { task, receiver in
                    if case .delegate(let weak) = receiver { weak.value?.speechRecognitionDidDetectSpeech(task) }
                }
            }
            guard request.shouldReportPartialResults else { continue }
            // Legacy partials carry no confidence or timing yet.
            let partialWords = words.map {
                LegacyResultFactory.Word(text: $0.text, timestamp: 0, duration: 0, confidence: 0)
            }
            let partial = try LegacyResultFactory.result(
                transcriptions: [try LegacyResultFactory.transcription(words: partialWords)], isFinal: false)
            deliver(terminal: false) { task, receiver in
                switch receiver {
                case .handler(let handler): handler(partial, nil)
                case .delegate(let weak):
                    weak.value?.speechRecognitionTask(task, didHypothesizeTranscription: partial.bestTranscription)
                }
            }
        }
        return finals
    }

    private func markFinishedReading() {
        lock.withLock {
            finishing = true
            if currentState == .running { currentState = .finishing }
        }
        deliver(terminal: false) { task, receiver in
            if case .delegate(let weak) = receiver { weak.value?.speechRecognitionTaskFinishedReadingAudio(task) }
        }
    }

    /// Joins the final phrases into one legacy final result (alternative k
    /// of the result joins alternative k of each phrase), or reports 1110
    /// when nothing was recognized.
    private func deliverFinal(_ phrases: [SpeechTranscriber.Result], keepingPunctuation: Bool) throws {
        let best = phrases.flatMap { AttributedTranscript.words(in: $0.text, keepingPunctuation: keepingPunctuation) }
        guard !best.isEmpty else {
            fail(NSError(domain: "kAFAssistantErrorDomain", code: 1110,
                         userInfo: [NSLocalizedDescriptionKey: "No speech detected"]))
            return
        }
        let bestWords = best.map {
            LegacyResultFactory.Word(text: $0.text, timestamp: $0.startSeconds, duration: $0.durationSeconds,
                                     confidence: Float($0.confidence ?? 0))
        }
        var transcriptions = [try LegacyResultFactory.transcription(words: bestWords)]
        let alternativeCount = phrases.map(\.alternatives.count).max() ?? 1
        for index in stride(from: 1, to: alternativeCount, by: 1) {
            let text = phrases.map { phrase in
                AttributedTranscript.plainText(of: index < phrase.alternatives.count ? phrase.alternatives[index]
                                                   : phrase.text, keepingPunctuation: keepingPunctuation)
            }.filter { !$0.isEmpty }.joined(separator: " ")
            guard !transcriptions.contains(where: { $0.formattedString == text }) else { continue }
            let words = text.split(separator: " ").map {
                LegacyResultFactory.Word(text: String($0), timestamp: 0, duration: 0, confidence: 0)
            }
            transcriptions.append(try LegacyResultFactory.transcription(words: words))
        }
        let result = try LegacyResultFactory.result(transcriptions: transcriptions, isFinal: true)
        let proceed = lock.withLock { () -> Bool in
            guard !terminated else { return false }
            terminated = true
            return true
        }
        guard proceed else { return }
        deliver(terminal: true) { task, receiver in
            switch receiver {
            case .handler(let handler): handler(result, nil)
            case .delegate(let weak):
                weak.value?.speechRecognitionTask(task, didFinishRecognition: result)
                weak.value?.speechRecognitionTask(task, didFinishSuccessfully: true)
            }
        }
    }

    /// Ends the task with `error` (unless it already ended).
    private func fail(_ error: any Error) {
        let proceed = lock.withLock { () -> Bool in
            guard !terminated else { return false }
            terminated = true
            currentError = error
            return true
        }
        guard proceed else { return }
        deliver(terminal: true) { task, receiver in
            switch receiver {
            case .handler(let handler): handler(nil, error)
            case .delegate(let weak): weak.value?.speechRecognitionTask(task, didFinishSuccessfully: false)
            }
        }
    }
}
