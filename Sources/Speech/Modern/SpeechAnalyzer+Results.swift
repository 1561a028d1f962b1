import CoreMedia
import Foundation

@available(macOS 26.0, iOS 26.0, *)
extension SpeechAnalyzer {
    /// Maps one update of a transcriber's backend to module results.
    ///
    /// After a normal finish the updates the backend emitted before it was
    /// cancelled are still published; after a failure (a bad buffer, a
    /// vanished device, found while those updates were in flight) only the
    /// final ones are: committed text reaches the app before the error.
    func handle(_ update: SessionUpdate, runner runnerID: ObjectIdentifier) {
        if case .finished(_?) = phase {
            guard case .final(let span) = update, var runner = runners[runnerID] else { return }
            publishFinal(span, runner: &runner)
            runners[runnerID] = runner
            return
        }
        guard var runner = runners[runnerID] else { return }
        let isPrimary = runnerID == primaryRunner
        switch update {
        case .volatile(let span):
            publishVolatile(span, runner: &runner)
        case .final(let span):
            publishFinal(span, runner: &runner)
        case .committed(let seconds):
            runner.finalizedThrough = max(runner.finalizedThrough, runner.time(seconds))
            if let outstanding = runner.outstandingVolatile, outstanding.end <= runner.finalizedThrough {
                revokeOutstandingVolatile(of: &runner)
            }
            if isPrimary, detection.speechStart == nil { detect(speech: false, through: runner.time(seconds)) }
        case .speechStarted(let seconds):
            if isPrimary, detection.speechStart == nil {
                let start = runner.time(seconds)
                detect(speech: false, through: start)
                detection.speechStart = start
            }
        case .speechEnded(let seconds):
            if isPrimary, detection.speechStart != nil {
                detect(speech: true, through: runner.time(seconds))
                detection.speechStart = nil
            }
        case .progress:
            break
        case .finished:
            revokeOutstandingVolatile(of: &runner)
        case .failed(let error):
            if update.isCancellation { break }
            runners[runnerID] = runner
            fail(ErrorMapping.speechError(forAny: error))
            return
        }
        runners[runnerID] = runner
        updateVolatileRange()
        resumeSatisfiedWaiters()
    }

    /// A transcriber's updates ended (its backend finished, failed or was
    /// cancelled): once the analyzer finished or the module was removed, its
    /// results end (and, once no transcriber is left publishing, the
    /// detectors' results too).
    func runnerDrained(_ runnerID: ObjectIdentifier) {
        guard var runner = runners[runnerID] else { return }
        runner.isReading = false
        if case .finished(let error) = phase {
            runners[runnerID] = nil
            runner.module.output.finish(throwing: runner.module.role.reportsErrors ? error : nil)
            if !runners.values.contains(where: \.isReading) { finishDetectors(throwing: error) }
            return
        }
        guard runner.isRemoved else {
            runners[runnerID] = runner
            return
        }
        runners[runnerID] = nil
        runner.module.output.finish(throwing: nil)
        updateVolatileRange()
        resumeSatisfiedWaiters()
    }

    /// Ends the detectors' result sequences.
    func finishDetectors(throwing error: (any Error)?) {
        for case let module as any AnalyzerModule in moduleList where module.role.detectorSettings != nil {
            module.output.finish(throwing: module.role.reportsErrors ? error : nil)
        }
    }

    /// Publishes a volatile span, replacing earlier volatile text.
    private func publishVolatile(_ span: RecognizedSpan, runner: inout TranscriberRunner) {
        guard runner.settings.reportsVolatileResults, let base = runner.base else { return }
        let range = ModernResultMapping.range(of: span, base: base)
        guard range.end > runner.finalizedThrough, range.end > cancelledBefore else { return }
        let alternatives = ModernResultMapping.alternatives(
            of: span, base: base, settings: runner.settings, continuesText: runner.hasPublishedText)
        runner.module.output.publish(ModernTranscription(
            range: range, finalizationTime: min(runner.finalizedThrough, range.start), alternatives: alternatives))
        runner.outstandingVolatile = range
    }

    /// Publishes a final span: its range is committed once.
    private func publishFinal(_ span: RecognizedSpan, runner: inout TranscriberRunner) {
        guard let base = runner.base else { return }
        let range = ModernResultMapping.range(of: span, base: base)
        runner.finalizedThrough = max(runner.finalizedThrough, range.end)
        let revokes = runner.outstandingVolatile.map { $0.start < range.end } ?? false
        if let outstanding = runner.outstandingVolatile, outstanding.end <= range.end {
            runner.outstandingVolatile = nil
        }
        // Audio cancelled by `cancelAnalysis(before:)` publishes nothing.
        guard range.end > cancelledBefore else { return }
        guard !span.text.isEmpty || revokes else { return }
        let alternatives = ModernResultMapping.alternatives(
            of: span, base: base, settings: runner.settings, continuesText: runner.hasPublishedText)
        runner.module.output.publish(ModernTranscription(
            range: range, finalizationTime: runner.finalizedThrough, alternatives: alternatives))
        if !span.text.isEmpty { runner.hasPublishedText = true }
    }

    /// Volatile text that no final result replaced once its audio is final:
    /// the engine found no speech there, so the text is revoked with an
    /// empty final result over its range.
    private func revokeOutstandingVolatile(of runner: inout TranscriberRunner) {
        guard let outstanding = runner.outstandingVolatile else { return }
        runner.outstandingVolatile = nil
        runner.module.output.publish(ModernTranscription(
            range: outstanding, finalizationTime: max(runner.finalizedThrough, outstanding.end),
            alternatives: [AttributedString()]))
    }

    /// Reports the timeline from what the detectors reported last up to
    /// `end` as speech or not.
    func detect(speech: Bool, through end: CMTime) {
        let reported = detection.reportedThrough ?? end
        guard end > reported else { return }
        publishDetection(CMTimeRange(start: reported, end: end), speech: speech)
    }

    private func publishDetection(_ range: CMTimeRange, speech: Bool) {
        guard range.end > range.start else { return }
        detection.reportedThrough = range.end
        for case let module as any AnalyzerModule in moduleList where module.role.detectorSettings != nil {
            module.output.publish(ModernDetection(range: range, finalizationTime: range.end,
                                                  speechDetected: speech))
        }
    }
}
