import Foundation

/// The continuous transcript of a long capture recognized by
/// `RollingRecognizer` as consecutive legacy tasks (stretches).
public struct RollingTranscript: Sendable, Hashable, Codable {
    /// One legacy task's share of the audio and what it recognized.
    public struct Stretch: Sendable, Hashable, Codable {
        /// Where the stretch starts in the whole capture, seconds.
        public var offsetSeconds: Double
        /// Its length, seconds.
        public var durationSeconds: Double
        /// Its final text ("" when the task found no speech).
        public var text: String
        /// Its words, with times from the start of the whole capture.
        public var words: [TimedWord]
    }

    /// The stretches in order.
    public var stretches: [Stretch]

    /// The whole transcript: the stretches' texts joined by spaces.
    public var text: String {
        stretches.map(\.text).filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Every word, with times from the start of the whole capture.
    public var words: [TimedWord] { stretches.flatMap(\.words) }
}
