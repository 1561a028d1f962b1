import Foundation
import Synchronization

/// Model management for the speech modules.
@available(macOS 26.0, iOS 26.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public enum SpeechModels {
    /// Releases every model kept loaded for reuse
    /// (`SpeechAnalyzer.Options.ModelRetention.lingering` and
    /// `.processLifetime`), and returns when they are released. Models that a
    /// running analyzer uses stay loaded until it finishes.
    public static func endRetention() async {
        (ModernTestHooks.modelRetention ?? .shared).endRetention()
    }
}

/// Decides when the engine's shared model cache may drop its models, from
/// the analyzers' `SpeechAnalyzer.Options.modelRetention`:
///
/// - `.whileInUse`: models are released when the last analysis using them
///   ends (unless another analyzer asked to keep them);
/// - `.lingering`: they stay for `lingeringSeconds` after that, so that a new
///   analyzer starts at once;
/// - `.processLifetime`: they stay until `SpeechModels.endRetention()`.
///
/// Releasing only drops the cache's references: a recognizer still running
/// (legacy or modern) keeps its model until it ends.
final class ModelRetention: Sendable {
    /// The process's retention, over the engine's shared model cache.
    static let shared = ModelRetention(lingeringSeconds: 60) { EngineBackend.releaseSharedModels() }

    private struct State {
        var activeAnalyses = 0
        var keepsForProcess = false
        var lingersUntil: ContinuousClock.Instant?
        var releaseCount = 0
    }

    /// How long `.lingering` keeps models after the last analysis ended.
    let lingeringSeconds: Double
    private let state = Mutex(State())
    private let releaseModels: @Sendable () -> Void

    /// Retention that calls `releaseModels` when models may go.
    init(lingeringSeconds: Double, releaseModels: @escaping @Sendable () -> Void) {
        self.lingeringSeconds = lingeringSeconds
        self.releaseModels = releaseModels
    }

    /// An analysis started using models.
    func analysisStarted() {
        state.withLock { $0.activeAnalyses += 1 }
    }

    /// An analysis that started ended, with its analyzer's retention option.
    func analysisEnded(retention: SpeechAnalyzer.Options.ModelRetention) {
        let clock = ContinuousClock()
        let releaseNow: Bool = state.withLock { state in
            state.activeAnalyses = max(0, state.activeAnalyses - 1)
            switch retention {
            case .whileInUse: break
            case .lingering: state.lingersUntil = clock.now.advanced(by: .seconds(lingeringSeconds))
            case .processLifetime: state.keepsForProcess = true
            }
            return mayReleaseLocked(state, now: clock.now)
        }
        if releaseNow {
            release()
        } else if retention == .lingering {
            let delay = lingeringSeconds
            Task { [self] in
                try? await Task.sleep(for: .seconds(delay))
                if state.withLock({ mayReleaseLocked($0, now: clock.now) }) { release() }
            }
        }
    }

    /// Ends every retention: models go now unless an analysis is running.
    func endRetention() {
        let releaseNow: Bool = state.withLock { state in
            state.keepsForProcess = false
            state.lingersUntil = nil
            return state.activeAnalyses == 0
        }
        if releaseNow { release() }
    }

    /// How many times models were released (for tests and diagnostics).
    var releaseCount: Int { state.withLock { $0.releaseCount } }

    private func mayReleaseLocked(_ state: State, now: ContinuousClock.Instant) -> Bool {
        state.activeAnalyses == 0 && !state.keepsForProcess && (state.lingersUntil.map { now >= $0 } ?? true)
    }

    private func release() {
        state.withLock { $0.releaseCount += 1 }
        releaseModels()
    }
}
