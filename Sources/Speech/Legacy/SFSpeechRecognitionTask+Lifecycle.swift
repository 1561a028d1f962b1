import Foundation
import SpeechEngine

extension SFSpeechRecognitionTask {
    /// Starts the task: obtains a session off the caller's thread, then
    /// connects the request's audio and reads the session's events.
    /// - Parameter failure: an error known before starting (not authorized,
    ///   unsupported locale); the task then completes with it.
    func start(locale: Locale, language: String?, factory: RecognitionSessionFactory, failure: (any Error)?) {
        if let failure {
            fail(failure)
            return
        }
        guard let language else {
            fail(ErrorMapping.Legacy.assetsNotInstalled.error(reason: "No model serves \(locale.identifier)."))
            return
        }
        guard !request.feed.isAttached else {
            fail(ErrorMapping.Legacy.alreadyActive.error(reason: "The request is already used by another task."))
            return
        }
        let options: StreamingOptions
        do {
            options = try request.streamingOptions(language: language)
        } catch {
            fail(error)
            return
        }
        // Creating a session may load a model (seconds): keep it off both the
        // caller's thread and Swift concurrency's small cooperative pool.
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            do {
                sessionReady(try factory.session(for: locale, options: options))
            } catch {
                fail(ErrorMapping.legacyError(forAny: error))
            }
        }
    }

    private func sessionReady(_ session: any RecognitionSession) {
        let proceed = lock.withLock {
            guard !terminated else { return false }
            self.session = session
            return true
        }
        guard proceed else {
            session.cancel()
            return
        }
        Task.detached(priority: .userInitiated) { [self] in
            for await event in session.events {
                handle(event)
            }
            streamEnded()
        }
        let sink = AudioFeed.Sink(
            samples: { [weak self] samples in
                self?.noteAudio(samples)
                session.append(samples)
            },
            end: { [weak self] in
                self?.noteEndOfAudio()
                session.finish()
            },
            fail: { [weak self] error in
                self?.fail(error)
                session.cancel()
            })
        guard request.feed.attach(sink) else {
            fail(ErrorMapping.Legacy.alreadyActive.error(reason: "The request is already used by another task."))
            session.cancel()
            return
        }
        if request is SFSpeechURLRecognitionRequest {
            lock.withLock { if currentState == .starting { currentState = .running } }
        }
        request.startProducingAudio()
    }

    private func noteAudio(_ samples: [Float]) {
        lock.withLock { if currentState == .starting { currentState = .running } }
        voice?.append(samples)
    }

    /// Audio input ended: the task is finishing. The delegate hears
    /// `speechRecognitionTaskFinishedReadingAudio` once the results for the
    /// audio already taken are out, just before the final result (or error),
    /// so it follows every hypothesis about that audio.
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

    private func handle(_ event: StreamingEvent) {
        guard !lock.withLock({ terminated }) else { return }
        switch event {
        case .speechDetected:
            let first = lock.withLock {
                defer { detectedSpeech = true }
                return !detectedSpeech
            }
            if first { post(.detectedSpeech) }
        case .volatile(let hypothesis):
            let finals = lock.withLock {
                volatile = hypothesis
                return self.finals
            }
            postPartial(finals: finals, volatile: hypothesis)
        case .final(let hypothesis):
            let (finals, audioEnded) = lock.withLock {
                self.finals.append(hypothesis)
                volatile = nil
                return (self.finals, finishing)
            }
            // Once audio has ended the final result is next: no extra partial.
            if !audioEnded { postPartial(finals: finals, volatile: nil, onlyIfChanged: true) }
        case .progress(let seconds):
            post(.processedAudio(seconds))
        case .limitReached:
            guard !request.rollsOverAtRecognitionLimit else { return }
            request.feed.close()
            noteEndOfAudio()
        case .finished:
            complete()
        case .failed(let error):
            fail(ErrorMapping.legacyError(for: error))
        }
    }

    /// Posts the cumulative partial result; a committed range whose text the
    /// last partial already showed is not reported again.
    private func postPartial(finals: [StreamingHypothesis], volatile: StreamingHypothesis?,
                             onlyIfChanged: Bool = false) {
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

    /// All audio recognized: the final result, or 1110 when nothing was said.
    private func complete() {
        let finals: [StreamingHypothesis]? = lock.withLock {
            guard !terminated else { return nil }
            return self.finals
        }
        guard let finals else { return }
        let result = ResultMapping.legacyResult(finals: finals, volatile: nil, isFinal: true, voice: voice)
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

    /// Ends the task with `error`, once; later errors are ignored.
    func fail(_ error: any Error) {
        let (proceed, audioStarted, session): (Bool, Bool, (any RecognitionSession)?) = lock.withLock {
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
