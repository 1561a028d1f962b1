import Foundation

/// One recognized word with its place in the audio and its confidence: the
/// common form of a legacy `SFTranscriptionSegment` and a modern attributed run.
public struct TimedWord: Codable, Sendable, Hashable {
    /// The word as recognized.
    public var text: String
    /// Seconds from the start of the audio to the word.
    public var startSeconds: Double
    /// Seconds the word lasts.
    public var durationSeconds: Double
    /// Confidence in [0, 1], or nil when the path reports none.
    public var confidence: Double?

    /// Creates a word; times are rounded to milliseconds and confidence to
    /// four decimals so that recorded goldens are stable.
    public init(text: String, startSeconds: Double, durationSeconds: Double, confidence: Double?) {
        self.text = text
        self.startSeconds = Self.round(startSeconds, places: 3)
        self.durationSeconds = Self.round(durationSeconds, places: 3)
        self.confidence = confidence.map { Self.round($0, places: 4) }
    }

    /// Seconds from the start of the audio to the end of the word.
    public var endSeconds: Double { startSeconds + durationSeconds }

    private static func round(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}
