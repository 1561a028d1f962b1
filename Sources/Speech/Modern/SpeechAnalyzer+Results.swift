import CoreMedia
import Foundation
import SpeechEngine

@available(macOS 26.0, iOS 26.0, *)
extension SpeechAnalyzer {
    /// Maps one engine event of a transcriber's session to module results.
    ///
    /// After a normal finish the events the sessions emitted before they were
    /// cancelled are still published; after a failure nothing is.
    func handle(_ event: StreamingEvent, segment id: Int, runner runnerID: ObjectIdentifier) {
        if case .finished(_?) = phase { return }
        guard var runner = runners[runnerID] else { return }
        let base = segments[id]?.base ?? runner.finalizedThrough
        switch event {
        case .volatile(let hypothesis):
            publishVolatile(hypothesis, base: base, runner: &runner)
        case .final(let hypothesis):
            publishFinal(hypothesis, base: base, runner: &runner)
            if runnerID == primaryRunner {
                detect(speech: !hypothesis.text.isEmpty,
                       in: ModernResultMapping.range(of: hypothesis, base: base))
            }
        case .speechDetected(let seconds):
            if runnerID == primaryRunner {
                let start = ModernResultMapping.time(seconds, after: base)
                detect(speech: false, in: CMTimeRange(start: detection.reportedThrough ?? start, end: start))
            }
        case .progress, .limitReached:
            break
        case .finished:
            let finalThrough = segments[id]?.finalThrough ?? segments[id]?.end ?? runner.finalizedThrough
            runner.finalizedThrough = max(runner.finalizedThrough, finalThrough)
            revokeOutstandingVolatile(of: &runner)
            if runnerID == primaryRunner, let end = segments[id]?.end {
                detect(speech: false, in: CMTimeRange(start: detection.reportedThrough ?? end, end: end))
            }
        case .failed(let error):
            if error.code == .cancelled { break }
            runners[runnerID] = runner
            fail(ErrorMapping.speechError(for: error))
            return
        }
        runners[runnerID] = runner
        updateVolatileRange()
        resumeSatisfiedWaiters()
    }

    /// A session's events ended (after `.finished`, `.failed`, or cancellation).
    func sessionEnded(_ id: Int, runner runnerID: ObjectIdentifier) {
        segments[id] = nil
        guard runners[runnerID] != nil else { return }
        runners[runnerID]?.openSessions -= 1
        if runners[runnerID]?.lastEndedSegment == id { runners[runnerID]?.lastEndedSegment = nil }
        resumeSatisfiedWaiters()
    }

    /// A transcriber's last session ended after its module was removed or
    /// the analyzer finished: its results end (and, once no transcriber is
    /// left publishing, the detectors' results too).
    func runnerDrained(_ runnerID: ObjectIdentifier) {
        guard let runner = runners[runnerID] else { return }
        if case .finished(let error) = phase {
            runners[runnerID] = nil
            runner.module.output.finish(throwing: error)
            if !runners.values.contains(where: \.isReading) { finishDetectors(throwing: error) }
            return
        }
        guard runner.isRemoved else { return }
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

    /// Publishes a volatile hypothesis, replacing earlier volatile text.
    private func publishVolatile(_ hypothesis: StreamingHypothesis, base: CMTime, runner: inout TranscriberRunner) {
        guard runner.settings.reportsVolatileResults else { return }
        let range = ModernResultMapping.range(of: hypothesis, base: base)
        guard range.end > runner.finalizedThrough, range.end > cancelledBefore else { return }
        let alternatives = ModernResultMapping.alternatives(
            of: hypothesis, base: base, settings: runner.settings, continuesText: runner.hasPublishedText)
        runner.module.output.publish(ModernTranscription(
            range: range, finalizationTime: min(runner.finalizedThrough, range.start), alternatives: alternatives))
        runner.outstandingVolatile = range
    }

    /// Publishes a final hypothesis: its range is committed once.
    private func publishFinal(_ hypothesis: StreamingHypothesis, base: CMTime, runner: inout TranscriberRunner) {
        let range = ModernResultMapping.range(of: hypothesis, base: base)
        guard range.end > runner.finalizedThrough || runner.outstandingVolatile != nil else { return }
        runner.finalizedThrough = max(runner.finalizedThrough, range.end)
        let revokes = runner.outstandingVolatile.map { $0.start < range.end } ?? false
        if let outstanding = runner.outstandingVolatile, outstanding.end <= range.end {
            runner.outstandingVolatile = nil
        }
        // Audio cancelled by `cancelAnalysis(before:)` publishes nothing.
        guard range.end > cancelledBefore else { return }
        guard !hypothesis.text.isEmpty || revokes else { return }
        let alternatives = ModernResultMapping.alternatives(
            of: hypothesis, base: base, settings: runner.settings, continuesText: runner.hasPublishedText)
        runner.module.output.publish(ModernTranscription(
            range: range, finalizationTime: runner.finalizedThrough, alternatives: alternatives))
        if !hypothesis.text.isEmpty { runner.hasPublishedText = true }
    }

    /// A session ended with volatile text that no final result replaced: the
    /// engine found no speech there, so the text is revoked with an empty
    /// final result over its range.
    private func revokeOutstandingVolatile(of runner: inout TranscriberRunner) {
        guard let outstanding = runner.outstandingVolatile else { return }
        runner.outstandingVolatile = nil
        runner.module.output.publish(ModernTranscription(
            range: outstanding, finalizationTime: max(runner.finalizedThrough, outstanding.end),
            alternatives: [AttributedString()]))
    }

    /// Reports a range to the speech detectors. Time between what they
    /// reported last and `range` is reported as no speech first; time they
    /// already reported is not reported again.
    func detect(speech: Bool, in range: CMTimeRange) {
        let reported = detection.reportedThrough ?? range.start
        if range.start > reported {
            publishDetection(CMTimeRange(start: reported, end: range.start), speech: false)
        }
        let start = max(range.start, reported)
        guard range.end > start else { return }
        publishDetection(CMTimeRange(start: start, end: range.end), speech: speech)
    }

    private func publishDetection(_ range: CMTimeRange, speech: Bool) {
        detection.reportedThrough = range.end
        for case let module as any AnalyzerModule in moduleList where module.role.detectorSettings != nil {
            module.output.publish(ModernDetection(range: range, finalizationTime: range.end,
                                                  speechDetected: speech))
        }
    }
}
