import CoreMedia
import Foundation

@available(macOS 26.0, iOS 26.0, *)
extension SpeechAnalyzer {
    /// How audio reaches the transcribers: live, as it arrives, or as a
    /// recording that is all there (a file), decoded as a file.
    enum Feed {
        case live([Float])
        case recording([Float])
    }

    /// Hands one input's samples to every transcriber, starting backends as
    /// needed and telling them about gaps in the input.
    func feed(_ audio: Feed, startingAt start: CMTime, gap: CMTime) throws {
        if consumedEnd == nil {
            // The timeline starts at the first input's time-code.
            for id in runners.keys { runners[id]?.finalizedThrough = start }
            detection.reportedThrough = start
        }
        for id in runnerOrder() {
            guard var runner = runners[id], !runner.isRemoved else { continue }
            if runner.backend == nil { try startBackend(for: &runner, at: nil) }
            if runner.base == nil {
                // Its first audio: stream time 0 is here.
                runner.base = start
                runner.finalizedThrough = max(runner.finalizedThrough, start)
            } else if gap > .zero {
                runner.backend?.appendGap(seconds: gap.seconds)
            }
            switch audio {
            case .live(let samples): runner.backend?.append(samples)
            case .recording(let samples): runner.backend?.appendRecording(samples)
            }
            runners[id] = runner
        }
    }

    /// The transcribers in module order (the primary one first).
    func runnerOrder() -> [ObjectIdentifier] {
        moduleList.map { ObjectIdentifier($0) }.filter { runners[$0] != nil }
            + runners.keys.filter { id in !moduleList.contains { ObjectIdentifier($0) == id } }
    }

    /// Starts a transcriber's backend; its stream time 0 is `base`, the
    /// timeline time of its first audio (set by that audio when nil).
    func startBackend(for runner: inout TranscriberRunner, at base: CMTime?) throws {
        try assets.requireReservation(for: runner.settings.locale)
        if !holdsAnalysisSlot, let analysisSlots {
            guard analysisSlots.acquire() else { throw ModernErrors.insufficientResources(limit: analysisSlots.limit) }
            holdsAnalysisSlot = true
        }
        let detector = moduleList.lazy.compactMap { ($0 as? any AnalyzerModule)?.role.detectorSettings }.first
        let configuration = runner.settings.configuration(phrases: analysisContext.phrases, detector: detector)
        let backend: any RecognitionBackend
        do {
            let factory = runner.module.pipelineFactory ?? sessionFactory
            backend = try factory.backend(for: runner.settings.locale, configuration: configuration)
        } catch {
            throw ErrorMapping.speechError(forAny: error)
        }
        if !usesModels {
            usesModels = true
            modelRetention.analysisStarted()
        }
        runner.backend = backend
        if let base {
            runner.base = base
            runner.finalizedThrough = max(runner.finalizedThrough, base)
        }
        runner.isReading = true
        startReading(backend.updates, runner: ObjectIdentifier(runner.module))
    }

    /// Reads a transcriber's updates until they end.
    func startReading(_ updates: AsyncStream<SessionUpdate>, runner id: ObjectIdentifier) {
        let weakSelf = WeakAnalyzer(self)
        _ = scheduler.task(analyzerOptions.priority) {
            for await update in updates {
                guard let analyzer = weakSelf.analyzer else { return }
                await analyzer.handle(update, runner: id)
            }
            await weakSelf.analyzer?.runnerDrained(id)
        }
    }
}
