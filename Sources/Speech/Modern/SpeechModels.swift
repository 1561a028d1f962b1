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
        ModelRetention.endRetention()
    }
}

/// Keeps recognition sessions' models loaded after their analyzers finish,
/// as `SpeechAnalyzer.Options.modelRetention` asks.
///
/// A retained "keeper" is an idle engine session for the locale: while it
/// exists, the engine's model cache holds the model it loaded. Releasing the
/// keeper lets the engine unload the model.
enum ModelRetention {
    /// How long `.lingering` keeps models after the last analyzer finished.
    static let lingeringSeconds: UInt64 = 60

    private struct State {
        var keepers: [String: any RecognitionSession] = [:]
        var generation = 0
    }

    private static let state = Mutex(State())

    /// An analysis using these sessions' models ended.
    /// - Parameters:
    ///   - retention: the analyzer's retention option.
    ///   - keepers: idle sessions (by locale key) that keep the models loaded.
    static func analysisEnded(retention: SpeechAnalyzer.Options.ModelRetention,
                              keepers: [String: any RecognitionSession] = [:]) {
        guard retention != .whileInUse, !keepers.isEmpty else {
            for keeper in keepers.values { keeper.cancel() }
            return
        }
        let generation: Int = state.withLock { state in
            for (key, keeper) in keepers {
                state.keepers[key]?.cancel()
                state.keepers[key] = keeper
            }
            state.generation += 1
            return state.generation
        }
        guard retention == .lingering else { return }
        Task {
            try? await Task.sleep(nanoseconds: lingeringSeconds * 1_000_000_000)
            let expired: [any RecognitionSession] = state.withLock { state in
                guard state.generation == generation else { return [] }
                defer { state.keepers = [:] }
                return Array(state.keepers.values)
            }
            for keeper in expired { keeper.cancel() }
        }
    }

    /// The number of models kept loaded now.
    static var retainedCount: Int {
        state.withLock { $0.keepers.count }
    }

    /// Releases every retained model.
    static func endRetention() {
        let released: [any RecognitionSession] = state.withLock { state in
            defer { state.keepers = [:] }
            return Array(state.keepers.values)
        }
        for keeper in released { keeper.cancel() }
    }
}
