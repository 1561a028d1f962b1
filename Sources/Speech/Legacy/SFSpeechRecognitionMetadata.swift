import Foundation

/// Facts about the speech of a final result: speaking rate, pauses, where
/// speech starts and how long it lasts, and voice analytics.
///
/// Only final results carry metadata; partial results have `nil`.
/// - Note: On Linux the values are derived from the engine's word timings:
///   `speakingRate` is words per minute of `speechDuration`,
///   `averagePauseDuration` the mean silence between consecutive words.
@available(iOS 14.5, macOS 11.3, *)
open class SFSpeechRecognitionMetadata: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked: immutable after init.

    /// Words per minute.
    open private(set) var speakingRate: Double
    /// Average pause between words, in seconds.
    open private(set) var averagePauseDuration: TimeInterval
    /// Start of speech, in seconds from the start of the audio.
    open private(set) var speechStartTimestamp: TimeInterval
    /// Duration of speech, in seconds.
    open private(set) var speechDuration: TimeInterval
    /// Vocal analytics of the speech, or nil (on-device recognition).
    open private(set) var voiceAnalytics: SFVoiceAnalytics?

    init(speakingRate: Double, averagePauseDuration: TimeInterval, speechStartTimestamp: TimeInterval,
         speechDuration: TimeInterval, voiceAnalytics: SFVoiceAnalytics?) {
        self.speakingRate = speakingRate
        self.averagePauseDuration = averagePauseDuration
        self.speechStartTimestamp = speechStartTimestamp
        self.speechDuration = speechDuration
        self.voiceAnalytics = voiceAnalytics
    }

    /// Returns `self`: metadata is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// `true`: metadata decodes securely.
    public static var supportsSecureCoding: Bool { true }

    /// Encodes all values.
    open func encode(with coder: NSCoder) {
        coder.encode(speakingRate, forKey: "speakingRate")
        coder.encode(averagePauseDuration, forKey: "averagePauseDuration")
        coder.encode(speechStartTimestamp, forKey: "speechStartTimestamp")
        coder.encode(speechDuration, forKey: "speechDuration")
        coder.encode(voiceAnalytics, forKey: "voiceAnalytics")
    }

    /// Decodes metadata written by `encode(with:)`.
    public required init?(coder: NSCoder) {
        speakingRate = coder.decodeDouble(forKey: "speakingRate")
        averagePauseDuration = coder.decodeDouble(forKey: "averagePauseDuration")
        speechStartTimestamp = coder.decodeDouble(forKey: "speechStartTimestamp")
        speechDuration = coder.decodeDouble(forKey: "speechDuration")
        voiceAnalytics = coder.decodeObject(of: SFVoiceAnalytics.self, forKey: "voiceAnalytics")
    }
}
