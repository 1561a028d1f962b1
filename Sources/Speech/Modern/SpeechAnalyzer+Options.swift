import Foundation

@available(macOS 26.0, iOS 26.0, *)
extension SpeechAnalyzer {
    /// Analysis options: task priority and how long models stay loaded.
    public struct Options: Sendable, Equatable {
        /// The priority of most of the analyzer's processing work.
        ///
        /// Call the analyzer from tasks of the desired priority too: not all
        /// work runs at this priority.
        /// - Note: On Linux this is the priority of the tasks that consume
        ///   input and publish results; the engine's decoding threads are not
        ///   prioritised.
        public let priority: TaskPriority

        /// How long the analyzer's models stay loaded.
        public let modelRetention: ModelRetention

        /// Creates options.
        public init(priority: TaskPriority, modelRetention: ModelRetention) {
            self.priority = priority
            self.modelRetention = modelRetention
        }

        /// How long models stay in memory after an analyzer stops using them.
        public enum ModelRetention: CaseIterable, Sendable, Equatable, Hashable {
            /// Release models when the analyzer is deallocated or finishes.
            case whileInUse
            /// Keep models for a while so that another compatible analyzer can
            /// reuse them.
            /// - Note: On Linux "a while" is until `SpeechModels.endRetention()`
            ///   or 60 seconds after the last analyzer using them finished.
            case lingering
            /// Keep models until the process exits (or
            /// `SpeechModels.endRetention()` is called).
            case processLifetime
        }
    }
}

@available(macOS 26.0, iOS 26.0, *)
extension SpeechAnalyzer.Options {
    /// The options used when an analyzer is created without any.
    static let `default` = SpeechAnalyzer.Options(priority: .medium, modelRetention: .whileInUse)
}
