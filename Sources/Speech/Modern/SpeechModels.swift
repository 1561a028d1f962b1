import Foundation

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
        /// Bumped by each lingering end; only the latest one's timer releases.
        var lingerGeneration = 0
        var lingers = false
        var releaseCount = 0
    }

    /// How long `.lingering` keeps models after the last analysis ended.
    let lingeringSeconds: Double
    private let state = LockedState(State())
    private let releaseModels: @Sendable () -> Void
    /// Where the lingering time is kept (the system's clock; a test's manual one).
    private let scheduler: BridgeScheduler

    /// Retention that calls `releaseModels` when models may go.
    init(lingeringSeconds: Double, scheduler: BridgeScheduler = .system,
         releaseModels: @escaping @Sendable () -> Void) {
        self.lingeringSeconds = lingeringSeconds
        self.scheduler = scheduler
        self.releaseModels = releaseModels
    }

    /// An analysis started using models.
    func analysisStarted() {
        state.withLock { $0.activeAnalyses += 1 }
    }

    /// An analysis that started ended, with its analyzer's retention option.
    func analysisEnded(retention: SpeechAnalyzer.Options.ModelRetention) {
        let (releaseNow, generation): (Bool, Int) = state.withLock { state in
            state.activeAnalyses = max(0, state.activeAnalyses - 1)
            switch retention {
            case .whileInUse: break
            case .lingering:
                state.lingerGeneration += 1
                state.lingers = true
            case .processLifetime: state.keepsForProcess = true
            }
            return (mayReleaseLocked(state), state.lingerGeneration)
        }
        if releaseNow {
            release()
        } else if retention == .lingering {
            scheduler.after(lingeringSeconds) { [self] in
                let expired = state.withLock { state in
                    guard state.lingerGeneration == generation else { return false }
                    state.lingers = false
                    return mayReleaseLocked(state)
                }
                if expired { release() }
            }
        }
    }

    /// Ends every retention: models go now unless an analysis is running.
    func endRetention() {
        let releaseNow: Bool = state.withLock { state in
            state.keepsForProcess = false
            state.lingers = false
            return state.activeAnalyses == 0
        }
        if releaseNow { release() }
    }

    /// How many times models were released (for tests and diagnostics).
    var releaseCount: Int { state.withLock { $0.releaseCount } }

    private func mayReleaseLocked(_ state: State) -> Bool {
        state.activeAnalyses == 0 && !state.keepsForProcess && !state.lingers
    }

    private func release() {
        state.withLock { $0.releaseCount += 1 }
        releaseModels()
    }
}
