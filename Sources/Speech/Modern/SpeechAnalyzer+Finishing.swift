import CoreMedia
import Foundation

@available(macOS 26.0, iOS 26.0, *)
extension SpeechAnalyzer {
    /// What a waiting method waits for.
    enum WaitCondition {
        /// Input consumed through this time.
        case consumed(CMTime)
        /// Every transcriber final through this time.
        case finalized(CMTime)
        /// The current input sequence ended and was fully consumed.
        case inputExhausted
    }

    /// A suspended method and its condition.
    struct Waiter {
        /// The condition that resumes it.
        var condition: WaitCondition
        /// Resumed with success when the condition holds, or with the
        /// analyzer's error (`CancellationError` if it finished without one).
        var continuation: CheckedContinuation<Void, any Error>
        /// Called when it is resumed (a test scheduler then counts it running again).
        var onResume: @Sendable () -> Void = {}
    }

    // MARK: Finalizing and finishing

    /// Waits until input through `time` is analyzed and its final results
    /// are published; `nil` means through the input consumed so far.
    ///
    /// Only results before `time` are finalized: later audio stays volatile
    /// and is recognized on with the finalized text as context. A word the
    /// time falls in is finalized when most of it came before. Does nothing
    /// if no input was consumed or the time is already final.
    /// - Throws: `CancellationError` if the analyzer finishes first, or the
    ///   error that failed the analysis.
    public final func finalize(through time: CMTime?) async throws {
        if case .finished(let error) = phase {
            if let error { throw error }
            guard let time, let consumedEnd, time <= consumedEnd, isFinalized(through: time) else {
                if time == nil { return }
                throw CancellationError()
            }
            return
        }
        guard let target = time ?? consumedEnd else { return }
        try await wait(for: .consumed(target))
        guard !isFinalized(through: target) else { return }
        for runner in runners.values where !runner.isRemoved && runner.finalizedThrough < target {
            runner.backend?.commit(throughSeconds: runner.streamSeconds(target))
        }
        try await wait(for: .finalized(target))
    }

    /// Waits for the current input sequence to end and be consumed (across
    /// `start` replacements, and for a sequence if there is none yet), then
    /// finalizes all input and finishes.
    public final func finalizeAndFinishThroughEndOfInput() async throws {
        if case .finished(let error) = phase {
            if let error { throw error }
            return
        }
        try await wait(for: .inputExhausted)
        try await finalize(through: nil)
        finishNow()
    }

    /// Finalizes through `time`, then finishes once input through it is
    /// consumed: `finalize(through:)` followed by `finish(after:)`.
    public final func finalizeAndFinish(through time: CMTime) async throws {
        try await finalize(through: time)
        try await finish(after: time)
    }

    /// Finishes once input through `time` is consumed: the result sequences
    /// end, no more input is consumed and most methods do nothing.
    /// Unfinalized (volatile) results are discarded; finalize first to keep
    /// them. Not needed before releasing the analyzer.
    public final func finish(after time: CMTime) async throws {
        if case .finished(let error) = phase {
            if let error { throw error }
            return
        }
        try await wait(for: .consumed(time))
        finishNow()
    }

    /// Cancels, as far as possible, pending analysis of audio before `time`;
    /// analysis continues normally after it. Results for cancelled audio that
    /// were not final are not published.
    /// - Note: On Linux the audio is still recognized (its words are context
    ///   for what follows); results that end before `time` are dropped.
    public final func cancelAnalysis(before time: CMTime) {
        guard case .active = phase, time.isNumeric, time > cancelledBefore else { return }
        cancelledBefore = time
        for id in runners.keys {
            if let outstanding = runners[id]?.outstandingVolatile, outstanding.end <= time {
                runners[id]?.outstandingVolatile = nil
            }
        }
        updateVolatileRange()
        resumeSatisfiedWaiters()
    }

    /// Cancels all pending analysis and finishes at once, even before any
    /// input. Unfinalized results are discarded.
    public final func cancelAndFinishNow() async {
        guard case .active = phase else { return }
        finishNow()
    }

    // MARK: Internals

    /// Whether every transcriber's results are final through `time` (half a
    /// sample of tolerance: the engine counts in samples). A transcriber that
    /// heard no audio has nothing to finalize.
    func isFinalized(through time: CMTime) -> Bool {
        let tolerance = CMTime(value: 1, timescale: 2 * ModernAudioFormats.sampleRate)
        return runners.values.allSatisfy { runner in
            runner.isRemoved || runner.backend == nil
                || max(runner.finalizedThrough, cancelledBefore) + tolerance >= time
        }
    }

    /// Suspends until `condition` holds, or throws when the analyzer finishes first.
    func wait(for condition: WaitCondition) async throws {
        if isSatisfied(condition) { return }
        try throwIfFailed()
        guard case .active = phase else { throw CancellationError() }
        let id = nextWaiterID
        nextWaiterID += 1
        try await withCheckedThrowingContinuation { continuation in
            waiters[id] = Waiter(condition: condition, continuation: continuation, onResume: scheduler.waits())
        }
    }

    /// Whether a wait condition holds now.
    func isSatisfied(_ condition: WaitCondition) -> Bool {
        switch condition {
        case .consumed(let time): return consumedEnd.map { $0 >= time } ?? false
        case .finalized(let time): return isFinalized(through: time)
        case .inputExhausted: return inputExhausted
        }
    }

    /// Resumes the waiters whose conditions now hold.
    func resumeSatisfiedWaiters() {
        for (id, waiter) in waiters where isSatisfied(waiter.condition) {
            waiters[id] = nil
            waiter.onResume()
            waiter.continuation.resume()
        }
    }

    /// Fails the analysis: everything stops, and `error` is thrown from every
    /// waiting method and result sequence.
    func fail(_ error: any Error) {
        guard case .active = phase else { return }
        end(with: error)
    }

    /// Finishes the analysis now: input stops, sessions are cancelled,
    /// result sequences end and waiters are released.
    func finishNow() {
        guard case .active = phase else { return }
        end(with: nil)
    }

    /// Ends the analysis. Every session is cancelled and waiters are
    /// released at once. Each transcriber's sequence ends once the results
    /// its sessions emitted before the cancellation are published (after a
    /// failure only the final ones), then throws `error` if there is one.
    private func end(with error: (any Error)?) {
        phase = .finished(error)
        inputGeneration += 1
        inputTask.withLock { task in
            task?.cancel()
            task = nil
        }
        for id in Array(runners.keys) {
            guard let runner = runners[id] else { continue }
            runner.backend?.cancel()
            // A runner still reading keeps publishing the finals its session
            // emitted before the end (after a failure too: text the engine
            // committed is never dropped); its results end when its updates do.
            if !runner.isReading {
                runners[id] = nil
                runner.module.output.finish(throwing: runner.module.role.reportsErrors ? error : nil)
            } else {
                runners[id] = runner
            }
        }
        if error != nil || !runners.values.contains(where: \.isReading) {
            finishDetectors(throwing: error)
        }
        if holdsAnalysisSlot {
            holdsAnalysisSlot = false
            analysisSlots?.release()
        }
        if usesModels {
            usesModels = false
            modelRetention.analysisEnded(retention: analyzerOptions.modelRetention)
        }
        let pending = waiters
        waiters = [:]
        for waiter in pending.values {
            waiter.onResume()
            if isSatisfied(waiter.condition) {
                waiter.continuation.resume()
            } else {
                waiter.continuation.resume(throwing: error ?? CancellationError())
            }
        }
        volatileRangeChangedHandler = nil
    }

    // MARK: Modules

    /// Stops sending audio to a module that `setModules` removed.
    func removeModule(_ module: any SpeechModule) {
        let id = ObjectIdentifier(module)
        if var runner = runners[id] {
            runner.isRemoved = true
            // It finishes what it heard; its results end when its updates do.
            runner.backend?.finish()
            if !runner.isReading {
                runners[id] = nil
                runner.module.output.finish(throwing: nil)
            } else {
                runners[id] = runner
            }
        } else if let module = module as? any AnalyzerModule {
            module.output.finish(throwing: nil)
        }
        if primaryRunner == id { primaryRunner = nil }
    }

    /// Starts sending audio consumed from now on to a module `setModules` added.
    func addModule(_ module: any AnalyzerModule) {
        guard let settings = module.role.transcriberSettings else { return }
        runners[ObjectIdentifier(module)] = TranscriberRunner(
            module: module, settings: settings, finalizedThrough: consumedEnd ?? .zero)
    }
}
