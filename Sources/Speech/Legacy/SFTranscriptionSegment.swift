import Foundation

/// One word (or a few) of a transcription, with where it sits in
/// `formattedString`, when it was spoken and how sure the recognizer is.
///
/// Partial results have `confidence == 0`; final results carry real values.
/// `timestamp` is seconds from the start of the request's audio.
/// - Note: On Linux segments are the engine's words: `substringRange` is an
///   `NSRange` in UTF-16 units with
///   `(formattedString as NSString).substring(with: substringRange) == substring`;
///   `confidence` is the mean probability of the word's tokens;
///   `alternativeSubstrings` come from the beam's n-best transcripts.
@available(iOS 10.0, macOS 10.15, *)
open class SFTranscriptionSegment: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked: immutable after init.

    /// The text of the segment.
    open private(set) var substring: String
    /// The range of the segment within the parent transcription's `formattedString`.
    open private(set) var substringRange: NSRange
    /// Seconds from the start of the audio to the start of the segment.
    open private(set) var timestamp: TimeInterval
    /// Seconds the speaker took to say the segment.
    open private(set) var duration: TimeInterval
    /// Confidence in [0, 1]; 0 when there was no recognition (partial results).
    open private(set) var confidence: Float
    /// Other interpretations of the segment's utterance.
    open private(set) var alternativeSubstrings: [String]
    /// Vocal analytics of the segment (final results only).
    @available(iOS, introduced: 13.0, deprecated: 14.5, message: "Use SFSpeechRecognitionMetadata.voiceAnalytics")
    @available(macOS, introduced: 10.15, deprecated: 11.3, message: "Use SFSpeechRecognitionMetadata.voiceAnalytics")
    open var voiceAnalytics: SFVoiceAnalytics? { storedVoiceAnalytics }

    private let storedVoiceAnalytics: SFVoiceAnalytics?

    init(substring: String, substringRange: NSRange, timestamp: TimeInterval, duration: TimeInterval,
         confidence: Float, alternativeSubstrings: [String], voiceAnalytics: SFVoiceAnalytics?) {
        self.substring = substring
        self.substringRange = substringRange
        self.timestamp = timestamp
        self.duration = duration
        self.confidence = confidence
        self.alternativeSubstrings = alternativeSubstrings
        self.storedVoiceAnalytics = voiceAnalytics
    }

    /// Returns `self`: segments are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// `true`: segments decode securely.
    public static var supportsSecureCoding: Bool { true }

    /// Encodes all values.
    open func encode(with coder: NSCoder) {
        coder.encode(substring as NSString, forKey: "substring")
        coder.encode(substringRange.location, forKey: "location")
        coder.encode(substringRange.length, forKey: "length")
        coder.encode(timestamp, forKey: "timestamp")
        coder.encode(duration, forKey: "duration")
        coder.encode(confidence, forKey: "confidence")
        coder.encode(alternativeSubstrings.map { $0 as NSString } as NSArray, forKey: "alternativeSubstrings")
        coder.encode(storedVoiceAnalytics, forKey: "voiceAnalytics")
    }

    /// Decodes a segment written by `encode(with:)`.
    public required init?(coder: NSCoder) {
        guard let substring = coder.decodeObject(of: NSString.self, forKey: "substring") else { return nil }
        self.substring = substring as String
        substringRange = NSRange(location: coder.decodeInteger(forKey: "location"),
                                 length: coder.decodeInteger(forKey: "length"))
        timestamp = coder.decodeDouble(forKey: "timestamp")
        duration = coder.decodeDouble(forKey: "duration")
        confidence = coder.decodeFloat(forKey: "confidence")
        let alternatives = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "alternativeSubstrings")
        alternativeSubstrings = (alternatives as? [NSString])?.map { $0 as String } ?? []
        storedVoiceAnalytics = coder.decodeObject(of: SFVoiceAnalytics.self, forKey: "voiceAnalytics")
    }

    /// A readable summary: substring, range, time and confidence.
    open override var description: String {
        "SFTranscriptionSegment(\"\(substring)\" \(substringRange.location)+\(substringRange.length) "
            + "t=\(timestamp) d=\(duration) c=\(confidence))"
    }
}
