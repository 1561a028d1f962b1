import Foundation

extension SFSpeechRecognitionTask {
    /// Starts the task: obtains a session off the caller's thread, then
    /// connects the request's audio and reads the session's updates.
    /// - Parameter failure: an error known before starting (not authorized,
    ///   unsupported locale); the task then completes with it.
    func start(locale: Locale, language: String?, factory: RecognitionSessionFactory, failure: (any Error)?) {
        if let failure {
            fail(failure)
            return
        }
        guard language != nil else {
            fail(ErrorMapping.Legacy.assetsNotInstalled.error(reason: "No model serves \(locale.identifier)."))
            return
        }
        guard !request.feed.isAttached else {
            fail(ErrorMapping.Legacy.alreadyActive.error(reason: "The request is already used by another task."))
            return
        }
        let configuration = request.recognitionConfiguration()
        lock.withLock { nextLimitSeconds = request.recognitionLimitSeconds }
        // Creating a session may load a model (seconds): keep it off both the
        // caller's thread and Swift concurrency's small cooperative pool.
        scheduler.background { [self] in
            do {
                sessionReady(try factory.backend(for: locale, configuration: configuration))
            } catch {
                fail(ErrorMapping.legacyError(forAny: error))
            }
        }
    }

    private func sessionReady(_ session: any RecognitionBackend) {
        let proceed = lock.withLock {
            guard !terminated else { return false }
            self.session = session
            return true
        }
        guard proceed else {
            session.cancel()
            return
        }
        _ = scheduler.task(.userInitiated) { [self] in
            for await update in session.updates {
                handle(update)
            }
            streamEnded()
        }
        let sink = AudioFeed.Sink(
            samples: { [weak self] samples in
                self?.take(samples, into: session)
            },
            recording: { [weak self] samples in
                self?.takeRecording(samples, into: session)
            },
            end: { [weak self] in
                self?.noteEndOfAudio()
                session.finish()
            },
            fail: { [weak self] error in
                self?.fail(error)
                session.cancel()
            },
            interrupt: { [weak self] error in
                guard let self else { return session.cancel() }
                lock.withLock { interruption = interruption ?? error }
                noteEndOfAudio()
                session.finish()
            })
        guard request.feed.attach(sink) else {
            fail(ErrorMapping.Legacy.alreadyActive.error(reason: "The request is already used by another task."))
            session.cancel()
            return
        }
        if request is SFSpeechURLRecognitionRequest {
            lock.withLock { if currentState == .starting { currentState = .running } }
        }
        request.startProducingAudio(on: scheduler)
    }

    /// Hands live samples to the session, applying the one-minute limit of
    /// server-style tasks: at the limit the task stops taking audio and
    /// finishes, or — rolling — finalizes there and goes on.
    private func take(_ samples: [Float], into session: any RecognitionBackend) {
        let rate = BufferConversion.outputRate
        let (accepted, limits): ([Float], [Double]) = lock.withLock {
            if currentState == .starting { currentState = .running }
            guard !stoppedAtLimit else { return ([], []) }
            let before = appendedSeconds
            let end = before + Double(samples.count) / rate
            var accepted = samples
            var reached: [Double] = []
            // One block can cross several limits (audio appended before the
            // session was attached arrives at once): a rolling task commits
            // at each of them.
            while let limit = nextLimitSeconds, end >= limit {
                reached.append(limit)
                if request.rollsOverAtRecognitionLimit {
                    nextLimitSeconds = limit + request.maximumRecognitionDuration
                } else {
                    accepted = Array(samples.prefix(max(0, Int(((limit - before) * rate).rounded()))))
                    nextLimitSeconds = nil
                    stoppedAtLimit = true
                }
            }
            appendedSeconds = before + Double(accepted.count) / rate
            return (accepted, reached)
        }
        guard !accepted.isEmpty || !limits.isEmpty else { return }
        voice?.append(accepted)
        session.append(accepted)
        guard !limits.isEmpty else { return }
        if request.rollsOverAtRecognitionLimit {
            for limit in limits { session.commit(throughSeconds: limit) }
        } else {
            // Apple stops reading at the limit and delivers the first minute's
            // result. This runs inside the feed's delivery, so the feed is
            // closed after it returns; audio until then is dropped above.
            noteEndOfAudio()
            session.finish()
            let feed = request.feed
            scheduler.background { feed.close() }
        }
    }

    /// Hands a whole recording (a URL request's file) to the session; a
    /// server-style task that does not roll over recognizes its first minute.
    private func takeRecording(_ samples: [Float], into session: any RecognitionBackend) {
        let recording: [Float] = lock.withLock {
            if currentState == .starting { currentState = .running }
            isRecording = true
            guard let limit = nextLimitSeconds, !request.rollsOverAtRecognitionLimit else { return samples }
            return Array(samples.prefix(Int(limit * BufferConversion.outputRate)))
        }
        voice?.append(recording)
        session.appendRecording(recording)
    }

    /// Audio input ended (`endAudio()`, `finish()`, the end of the file or
    /// the limit): the task is finishing. The delegate hears
    /// `speechRecognitionTaskFinishedReadingAudio` once the engine has read
    /// that audio — when its progress reaches the end of the input (a
    /// recording is read at once, right after it reports where the speech
    /// is) — so the call follows the hypotheses about the audio it read and
    /// comes before the results still being decoded, not at the final.
    func noteEndOfAudio() {
        lock.withLock {
            guard !finishing, !terminated else { return }
            finishing = true
            if currentState == .starting || currentState == .running { currentState = .finishing }
        }
    }

    private func reportFinishedReading() {
        let first = lock.withLock {
            defer { reportedFinishedReading = true }
            return !reportedFinishedReading
        }
        if first { post(.finishedReading) }
    }

    private func handle(_ update: SessionUpdate) {
        let (terminated, audioRead) = lock.withLock { () -> (Bool, Bool) in
            guard finishing else { return (self.terminated, false) }
            switch update {
            case .speechStarted, .speechEnded, .volatile: return (self.terminated, false)
            case .progress(let seconds): return (self.terminated, isRecording || seconds >= appendedSeconds - 1e-6)
            default: return (self.terminated, true)
            }
        }
        guard !terminated else { return }
        if audioRead { reportFinishedReading() }
        switch update {
        case .speechStarted:
            let first = lock.withLock {
                defer { detectedSpeech = true }
                return !detectedSpeech
            }
            if first { post(.detectedSpeech) }
        case .volatile(let span):
            let finals = lock.withLock {
                volatile = span
                return self.finals
            }
            postPartial(finals: finals, volatile: span)
        case .final(let span):
            let (finals, showsPartial) = lock.withLock {
                self.finals.append(span)
                volatile = nil
                // Live audio: once it has ended the final result is next, so no extra
                // partial. A recording shows each decoded window as it comes.
                return (self.finals, isRecording || !finishing)
            }
            if showsPartial { postPartial(finals: finals, volatile: nil, onlyIfChanged: true) }
        case .progress(let seconds):
            post(.processedAudio(seconds))
        case .speechEnded, .committed:
            break
        case .finished:
            complete()
        case .failed(let error):
            fail(ErrorMapping.legacyError(forAny: error))
        }
    }

    /// Posts the cumulative partial result; a committed range whose text the
    /// last partial already showed is not reported again.
    private func postPartial(finals: [RecognizedSpan], volatile: RecognizedSpan?, onlyIfChanged: Bool = false) {
        guard request.shouldReportPartialResults else { return }
        let result = ResultMapping.legacyResult(finals: finals, volatile: volatile, isFinal: false, voice: nil)
        let text = result.bestTranscription.formattedString
        let changed = lock.withLock {
            defer { lastPartialText = text }
            return lastPartialText != text
        }
        guard changed || !onlyIfChanged else { return }
        post(.partial(result))
    }

    /// All audio recognized: the final result, or 1110 when nothing was said;
    /// after a vanished device, the result so far with the device error.
    private func complete() {
        let (finals, interruption): ([RecognizedSpan]?, (any Error)?) = lock.withLock {
            guard !terminated else { return (nil, nil) }
            return (self.finals, self.interruption)
        }
        guard let finals else { return }
        let result = ResultMapping.legacyResult(finals: finals, volatile: nil, isFinal: true, voice: voice)
        if let interruption {
            interrupt(with: interruption, result: result.bestTranscription.formattedString.isEmpty ? nil : result)
            return
        }
        guard !result.bestTranscription.formattedString.isEmpty else {
            fail(ErrorMapping.Legacy.noSpeech.error())
            return
        }
        let proceed = lock.withLock {
            guard !terminated else { return false }
            terminated = true
            finishing = true
            return true
        }
        guard proceed else { return }
        reportFinishedReading()
        post(.final(result))
    }

    /// Ends the task with the error that stopped its audio early, handing over
    /// the text recognized before it (`nil` if there was none).
    private func interrupt(with error: any Error, result: SFSpeechRecognitionResult?) {
        let proceed = lock.withLock {
            guard !terminated else { return false }
            terminated = true
            finishing = true
            currentError = error
            return true
        }
        guard proceed else { return }
        reportFinishedReading()
        post(.interrupted(result, error))
    }

    /// Ends the task with `error`, once; later errors are ignored.
    func fail(_ error: any Error) {
        let (proceed, audioStarted, session): (Bool, Bool, (any RecognitionBackend)?) = lock.withLock {
            guard !terminated else { return (false, false, nil) }
            terminated = true
            currentError = error
            return (true, currentState != .starting || finishing, self.session)
        }
        guard proceed else { return }
        request.feed.close()
        session?.cancel()
        if audioStarted { reportFinishedReading() }
        post(.failure(error))
    }

    private func streamEnded() {
        fail(ErrorMapping.Legacy.recognitionFailed.error(reason: "The recognition session ended without a result."))
    }
}
