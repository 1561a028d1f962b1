import Foundation
import Speech
import SpeechEngine

/// The fake engine: a `RecognitionBackend` that plays a script of
/// `SessionUpdate`s in answer to the face's verbs and records every verb.
///
/// Time is audio time: a step at `atSeconds` is emitted as soon as that much
/// audio (samples, gaps or a recording) has arrived. `finish()` drops the
/// steps the audio never reached and plays the finish script — unless the
/// finish is held, so that a test can act while the task is finishing, then
/// `releaseFinish()`. A commit through all the audio heard finalizes what
/// is pending (the finish script's results, not its ending), as the engine
/// does. `cancel()` ends the stream with a cancellation failure. `emit(_:)`
/// drives it by hand. No model and no threads of its own: updates are handed
/// to the face's reader one at a time, and while the reader waits for the
/// next one it is parked on the environment's `ActivityTracker`.
package final class ScriptedBackend: RecognitionBackend, Sendable {
    /// One scripted update and the audio time at which it happens.
    package struct Step: Sendable {
        package var atSeconds: Double
        package var event: SessionUpdate

        package init(atSeconds: Double, event: SessionUpdate) {
            self.atSeconds = atSeconds
            self.event = event
        }
    }

    /// A verb the face called, in order.
    package enum Verb: Sendable, Equatable {
        case append(seconds: Double)
        case gap(seconds: Double)
        case recording(seconds: Double)
        case commit(throughSeconds: Double)
        case finish
        case cancel
    }

    private struct State {
        var steps: [Step]
        var finishScript: [SessionUpdate]
        var holdsFinish: Bool
        var finishRequested = false
        var ended = false
        var audioSeconds = 0.0
        var verbs: [Verb] = []
        var buffered: [SessionUpdate] = []
        var streamEnded = false
        var reader: CheckedContinuation<SessionUpdate?, Never>?
        var tracker: ActivityTracker?
        var requests: [(locale: Locale, configuration: RecognitionConfiguration)] = []
    }

    /// The state, shared with the update stream's producer.
    private final class Shared: Sendable {
        let state: LockedState<State>
        init(_ state: State) { self.state = LockedState(state) }
    }

    private let shared: Shared
    package let updates: AsyncStream<SessionUpdate>

    /// A backend playing `steps` as audio arrives and `onFinish` at `finish()`.
    package init(steps: [Step] = [], onFinish: [SessionUpdate] = [.finished], holdsFinish: Bool = false) {
        let shared = Shared(State(steps: steps.sorted { $0.atSeconds < $1.atSeconds }, finishScript: onFinish,
                                  holdsFinish: holdsFinish))
        self.shared = shared
        updates = AsyncStream(unfolding: { await ScriptedBackend.next(from: shared) })
    }

    // MARK: What the face did

    /// Every verb so far, in order.
    package var verbs: [Verb] { shared.state.withLock { $0.verbs } }
    /// Seconds of audio (samples, gaps and recordings) received.
    package var appendedSeconds: Double { shared.state.withLock { $0.audioSeconds } }
    /// The stream times the face committed through, in order.
    package var commits: [Double] {
        verbs.compactMap { if case .commit(let seconds) = $0 { seconds } else { nil } }
    }
    /// The gaps the face reported, in seconds.
    package var gaps: [Double] {
        verbs.compactMap { if case .gap(let seconds) = $0 { seconds } else { nil } }
    }
    /// Whether audio came as a recording (a file decoded as a file).
    package var receivedRecording: Bool {
        verbs.contains { if case .recording = $0 { true } else { false } }
    }
    /// How often `finish()` and `cancel()` were called.
    package var finishCalls: Int { verbs.filter { $0 == .finish }.count }
    package var cancelCalls: Int { verbs.filter { $0 == .cancel }.count }
    /// The configuration of the face's last request for this backend.
    package var receivedConfiguration: RecognitionConfiguration? { shared.state.withLock { $0.requests.last?.configuration } }
    /// The locale of the face's last request for this backend.
    package var receivedLocale: Locale? { shared.state.withLock { $0.requests.last?.locale } }

    // MARK: Driving it

    /// Emits `update` now, whatever the audio clock says.
    package func emit(_ update: SessionUpdate) {
        shared.state.withLock { Self.emit(update, in: &$0) }
    }

    /// Lets a held `finish()` proceed.
    package func releaseFinish() {
        shared.state.withLock { state in
            state.holdsFinish = false
            if state.finishRequested { Self.playFinish(in: &state) }
        }
    }

    /// A factory handing out this backend (used by `SpeechTestEnvironment`).
    func handedOut(to tracker: ActivityTracker, locale: Locale, configuration: RecognitionConfiguration) -> Self {
        shared.state.withLock { state in
            state.tracker = tracker
            state.requests.append((locale, configuration))
        }
        return self
    }

    // MARK: RecognitionBackend

    package func append(_ samples: [Float]) {
        receiveAudio(.append(seconds: Self.seconds(samples.count)), seconds: Self.seconds(samples.count))
    }

    package func appendGap(seconds: Double) {
        receiveAudio(.gap(seconds: seconds), seconds: seconds)
    }

    package func appendRecording(_ samples: [Float]) {
        receiveAudio(.recording(seconds: Self.seconds(samples.count)), seconds: Self.seconds(samples.count))
    }

    package func commit(throughSeconds seconds: Double) {
        shared.state.withLock { state in
            state.verbs.append(.commit(throughSeconds: seconds))
            if seconds >= state.audioSeconds - 1e-6 {
                let results = state.finishScript.filter { !Self.isTerminal($0) }
                state.finishScript.removeAll { !Self.isTerminal($0) }
                for update in results { Self.emit(update, in: &state) }
            }
            Self.emit(.committed(throughSeconds: seconds), in: &state)
        }
    }

    package func finish() {
        shared.state.withLock { state in
            state.verbs.append(.finish)
            state.finishRequested = true
            if !state.holdsFinish { Self.playFinish(in: &state) }
        }
    }

    package func cancel() {
        shared.state.withLock { state in
            state.verbs.append(.cancel)
            Self.emit(.failed(EngineError(.cancelled, "Cancelled by the caller.")), in: &state)
        }
    }

    // MARK: Playing the script

    private func receiveAudio(_ verb: Verb, seconds: Double) {
        shared.state.withLock { state in
            state.verbs.append(verb)
            guard !state.ended else { return }
            state.audioSeconds += seconds
            while let first = state.steps.first, first.atSeconds <= state.audioSeconds + 1e-9 {
                state.steps.removeFirst()
                Self.emit(first.event, in: &state)
            }
        }
    }

    /// Steps later than the audio never happen (no audio, no updates); then
    /// the finish script plays.
    private static func playFinish(in state: inout State) {
        state.steps = []
        for update in state.finishScript { emit(update, in: &state) }
        state.finishScript = []
    }

    private static func emit(_ update: SessionUpdate, in state: inout State) {
        guard !state.ended else { return }
        if isTerminal(update) { state.ended = true }
        if let reader = state.reader {
            state.reader = nil
            state.tracker?.unpark()
            reader.resume(returning: update)
        } else {
            state.buffered.append(update)
        }
    }

    /// The reader's next update: a buffered one, `nil` after the terminal
    /// one, else it parks until one is emitted (or its task is cancelled).
    private static func next(from shared: Shared) async -> SessionUpdate? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<SessionUpdate?, Never>) in
                shared.state.withLock { state in
                    if !state.buffered.isEmpty {
                        continuation.resume(returning: state.buffered.removeFirst())
                    } else if state.ended || Task.isCancelled {
                        state.streamEnded = true
                        continuation.resume(returning: nil)
                    } else {
                        state.reader = continuation
                        state.tracker?.park()
                    }
                }
            }
        } onCancel: {
            shared.state.withLock { state in
                guard let reader = state.reader else { return }
                state.reader = nil
                state.tracker?.unpark()
                reader.resume(returning: nil)
            }
        }
    }

    private static func isTerminal(_ update: SessionUpdate) -> Bool {
        switch update {
        case .finished, .failed: true
        default: false
        }
    }

    private static func seconds(_ sampleCount: Int) -> Double {
        Double(sampleCount) / Transcriber.sampleRate
    }
}
