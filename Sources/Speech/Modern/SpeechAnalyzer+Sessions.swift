import CoreMedia
import Foundation
import SpeechEngine

@available(macOS 26.0, iOS 26.0, *)
extension SpeechAnalyzer {
    /// The longest gap between inputs that is fed to the engine as silence;
    /// a longer gap ends the current sessions and later audio starts new ones.
    static let longestSilentGapSeconds = 2.0

    /// Hands one input's samples to every transcriber, starting sessions as
    /// needed and bridging gaps in the input.
    func feed(_ samples: [Float], startingAt start: CMTime, gap: CMTime) throws {
        if consumedEnd == nil {
            // The timeline starts at the first input's time-code.
            for id in runners.keys { runners[id]?.finalizedThrough = start }
            detection.reportedThrough = start
        }
        let gapSamples = Int((gap.seconds * Double(ModernAudioFormats.sampleRate)).rounded())
        for id in runnerOrder() {
            guard var runner = runners[id], !runner.isRemoved else { continue }
            if gapSamples > 0, let current = runner.current, segments[current.id]?.base != nil {
                if gap.seconds <= Self.longestSilentGapSeconds {
                    current.session.append([Float](repeating: 0, count: gapSamples))
                    segments[current.id]?.end = start
                } else {
                    endSession(of: &runner)
                }
            }
            if runner.current == nil {
                try startSession(for: &runner, at: start)
            }
            guard let current = runner.current else { continue }
            assignBase(start, to: current.id, of: &runner)
            current.session.append(samples)
            segments[current.id]?.end = start + CMTime(value: CMTimeValue(samples.count),
                                                       timescale: ModernAudioFormats.sampleRate)
            runners[id] = runner
        }
    }

    /// The transcribers in module order (the primary one first).
    func runnerOrder() -> [ObjectIdentifier] {
        moduleList.map { ObjectIdentifier($0) }.filter { runners[$0] != nil }
            + runners.keys.filter { id in !moduleList.contains { ObjectIdentifier($0) == id } }
    }

    /// Starts a new engine session for a transcriber; its first audio sets
    /// its place on the timeline (`base` when known).
    func startSession(for runner: inout TranscriberRunner, at base: CMTime?) throws {
        try assets.requireReservation(for: runner.settings.locale)
        if !holdsAnalysisSlot, let analysisSlots {
            guard analysisSlots.acquire() else { throw ModernErrors.insufficientResources(limit: analysisSlots.limit) }
            holdsAnalysisSlot = true
        }
        let detector = moduleList.lazy.compactMap { ($0 as? any AnalyzerModule)?.role.detectorSettings }.first
        let options = try runner.settings.streamingOptions(phrases: analysisContext.phrases, detector: detector)
        let session: any RecognitionSession
        do {
            session = try sessionFactory.session(for: runner.settings.locale, options: options)
        } catch let error as EngineError {
            throw ErrorMapping.speechError(for: error)
        }
        if !usesModels {
            usesModels = true
            modelRetention.analysisStarted()
        }
        let id = nextSegmentID
        nextSegmentID += 1
        segments[id] = SegmentRecord(session: session)
        let segment = SessionSegment(id: id, session: session)
        runner.current = segment
        runner.openSessions += 1
        runner.chain.yield(segment)
        if let base { assignBase(base, to: id, of: &runner) }
        if !runner.isReading, let stream = runner.pendingChain {
            runner.isReading = true
            runner.pendingChain = nil
            startReading(stream, runner: ObjectIdentifier(runner.module))
        }
    }

    /// Places a session on the timeline at its first audio. Time between the
    /// previous session's end and `base` held no audio, so it is final as
    /// soon as the previous session is.
    func assignBase(_ base: CMTime, to id: Int, of runner: inout TranscriberRunner) {
        guard segments[id]?.base == nil else { return }
        segments[id]?.base = base
        segments[id]?.end = base
        if let previous = runner.lastEndedSegment, runner.openSessions > 1 {
            let previousFinal = segments[previous]?.finalThrough ?? base
            segments[previous]?.finalThrough = max(previousFinal, base)
        } else {
            runner.finalizedThrough = max(runner.finalizedThrough, base)
        }
    }

    /// Ends a transcriber's current session: the engine finalizes what it has
    /// and then reports `.finished`.
    func endSession(of runner: inout TranscriberRunner) {
        guard let current = runner.current else { return }
        runner.current = nil
        runner.lastEndedSegment = current.id
        let end = segments[current.id]?.end ?? segments[current.id]?.base ?? runner.finalizedThrough
        segments[current.id]?.finalThrough = end
        current.session.finish()
    }

    /// Reads the events of a transcriber's sessions, one session after the
    /// other, so that results stay in order across sessions.
    func startReading(_ chain: AsyncStream<SessionSegment>, runner id: ObjectIdentifier) {
        let weakSelf = WeakAnalyzer(self)
        Task(priority: analyzerOptions.priority) {
            for await segment in chain {
                for await event in segment.session.events {
                    guard let analyzer = weakSelf.analyzer else { return }
                    await analyzer.handle(event, segment: segment.id, runner: id)
                }
                await weakSelf.analyzer?.sessionEnded(segment.id, runner: id)
            }
            await weakSelf.analyzer?.runnerDrained(id)
        }
    }
}
