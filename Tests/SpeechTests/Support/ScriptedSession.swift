import Foundation
import SpeechEngine
@testable import Speech

/// A deterministic stand-in for the engine session: replays scripted
/// `StreamingEvent`s on an audio clock (nio's `EmbeddedEventLoop` idea).
///
/// Time advances only with the audio the face appends: a step at `atSeconds`
/// is emitted as soon as that much audio has arrived. `finish()` drops the
/// steps the audio never reached and emits the finish script (unless held, so a test can act while the task is
/// finishing); `cancel()` ends the stream with `.failed(.cancelled)`, as the
/// engine does. No model, no threads of its own.
final class ScriptedSession: RecognitionBackend, @unchecked Sendable {
    /// One scripted event and the audio time at which it happens.
    struct Step {
        var atSeconds: Double
        var event: StreamingEvent
    }

    let updates: AsyncStream<SessionUpdate>
    private let continuation: AsyncStream<SessionUpdate>.Continuation
    private let lock = NSLock()
    private var steps: [Step]
    private var finishEvents: [StreamingEvent]
    private var holdsFinish: Bool
    private var finishRequested = false
    private var ended = false
    private(set) var options: StreamingOptions?
    private var sampleCount = 0
    private var cancelCount = 0
    private var finishCount = 0

    /// A session replaying `steps` as audio arrives and `onFinish` at `finish()`.
    init(steps: [Step] = [], onFinish: [StreamingEvent] = [.finished], holdsFinish: Bool = false) {
        (updates, continuation) = AsyncStream.makeStream(of: SessionUpdate.self)
        self.steps = steps.sorted { $0.atSeconds < $1.atSeconds }
        self.finishEvents = onFinish
        self.holdsFinish = holdsFinish
    }

    /// A factory handing out this session and recording the options it got.
    var factory: RecognitionSessionFactory {
        RecognitionSessionFactory { [self] locale, configuration in
            let options = try ConfigurationMapping.streamingOptions(for: configuration, locale: locale)
            lock.withLock { self.options = options }
            return self
        }
    }

    /// Seconds of audio appended so far.
    var appendedSeconds: Double { lock.withLock { Double(sampleCount) / 16_000 } }
    /// How often `finish()` / `cancel()` were called.
    var finishCalls: Int { lock.withLock { finishCount } }
    var cancelCalls: Int { lock.withLock { cancelCount } }
    /// The options the face asked for.
    var receivedOptions: StreamingOptions? { lock.withLock { options } }

    func append(_ samples: [Float]) {
        lock.withLock {
            guard !ended else { return }
            sampleCount += samples.count
            let now = Double(sampleCount) / 16_000
            while let first = steps.first, first.atSeconds <= now {
                steps.removeFirst()
                emitLocked(first.event)
            }
        }
    }

    /// The stream times the face asked to commit through, in order.
    var commits: [Double] { lock.withLock { commitTimes } }
    private var commitTimes: [Double] = []
    /// Gaps the face reported, in seconds.
    var gaps: [Double] { lock.withLock { gapSeconds } }
    private var gapSeconds: [Double] = []
    /// Whether audio came as a recording (a file decoded as a file).
    var receivedRecording: Bool { lock.withLock { recordingSeen } }
    private var recordingSeen = false

    func appendGap(seconds: Double) {
        lock.withLock { gapSeconds.append(seconds) }
        append([Float](repeating: 0, count: Int(seconds * 16_000)))
    }

    func appendRecording(_ samples: [Float]) {
        lock.withLock { recordingSeen = true }
        append(samples)
    }

    /// As the engine does: a commit through all the audio heard finalizes
    /// what is pending (the finish script's results, not its ending), then
    /// reports the commit; an earlier one only reports it.
    func commit(throughSeconds seconds: Double) {
        lock.withLock {
            commitTimes.append(seconds)
            if seconds >= Double(sampleCount) / 16_000 - 1e-6 {
                let results = finishEvents.filter { event in
                    switch event {
                    case .finished, .failed: false
                    default: true
                    }
                }
                finishEvents.removeAll { event in
                    switch event {
                    case .finished, .failed: false
                    default: true
                    }
                }
                for event in results { emitLocked(event) }
            }
            emitLocked(.committed(throughSeconds: seconds))
        }
    }

    func finish() {
        lock.withLock {
            finishCount += 1
            finishRequested = true
            if !holdsFinish { flushFinishLocked() }
        }
    }

    func cancel() {
        lock.withLock {
            cancelCount += 1
            emitLocked(.failed(EngineError(.cancelled, "Cancelled by the caller.")))
        }
    }

    /// Lets a held `finish()` proceed.
    func releaseFinish() {
        lock.withLock {
            holdsFinish = false
            if finishRequested { flushFinishLocked() }
        }
    }

    /// Emits an event now, whatever the audio clock says.
    func emit(_ event: StreamingEvent) {
        lock.withLock { emitLocked(event) }
    }

    /// Steps later than the audio never happen (no audio, no events); then
    /// the finish script runs.
    private func flushFinishLocked() {
        steps = []
        for event in finishEvents { emitLocked(event) }
        finishEvents = []
    }

    private func emitLocked(_ event: StreamingEvent) {
        guard !ended else { return }
        continuation.yield(SessionUpdate(event))
        switch event {
        case .finished, .failed:
            ended = true
            continuation.finish()
        default:
            break
        }
    }
}
