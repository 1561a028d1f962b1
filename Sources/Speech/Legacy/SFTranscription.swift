import Foundation

/// A textual representation of the speech: one display string and its segments.
///
/// Partial results carry the whole transcription so far (cumulative, and it
/// may revise earlier words); the final result's transcription never changes.
/// - Note: On Linux `formattedString` is the engine's text (punctuated only
///   when the request's `addsPunctuation` is true) and the segments are its
///   words, in spoken order, with ranges into `formattedString`.
@available(iOS 10.0, macOS 10.15, *)
open class SFTranscription: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked: immutable after init.

    /// The entire transcription as one user-displayable string.
    open private(set) var formattedString: String
    /// The segments, in the order the utterances occur in the audio.
    open private(set) var segments: [SFTranscriptionSegment]

    /// Words per minute (0 in partial results).
    @available(iOS, introduced: 13.0, deprecated: 14.5, message: "Use SFSpeechRecognitionMetadata.speakingRate")
    @available(macOS, introduced: 10.15, deprecated: 11.3, message: "Use SFSpeechRecognitionMetadata.speakingRate")
    open var speakingRate: Double { storedSpeakingRate }

    /// Average pause between words in seconds (0 in partial results).
    @available(iOS, introduced: 13.0, deprecated: 14.5, message: "Use SFSpeechRecognitionMetadata.averagePauseDuration")
    @available(macOS, introduced: 10.15, deprecated: 11.3, message: "Use SFSpeechRecognitionMetadata.averagePauseDuration")
    open var averagePauseDuration: TimeInterval { storedAveragePauseDuration }

    private let storedSpeakingRate: Double
    private let storedAveragePauseDuration: TimeInterval

    init(formattedString: String, segments: [SFTranscriptionSegment], speakingRate: Double = 0,
         averagePauseDuration: TimeInterval = 0) {
        self.formattedString = formattedString
        self.segments = segments
        self.storedSpeakingRate = speakingRate
        self.storedAveragePauseDuration = averagePauseDuration
    }

    /// Returns `self`: transcriptions are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// `true`: transcriptions decode securely.
    public static var supportsSecureCoding: Bool { true }

    /// Encodes the string, segments and rates.
    open func encode(with coder: NSCoder) {
        coder.encode(formattedString as NSString, forKey: "formattedString")
        coder.encode(segments as NSArray, forKey: "segments")
        coder.encode(storedSpeakingRate, forKey: "speakingRate")
        coder.encode(storedAveragePauseDuration, forKey: "averagePauseDuration")
    }

    /// Decodes a transcription written by `encode(with:)`.
    public required init?(coder: NSCoder) {
        guard let text = coder.decodeObject(of: NSString.self, forKey: "formattedString") else { return nil }
        formattedString = text as String
        let decoded = coder.decodeObject(of: [NSArray.self, SFTranscriptionSegment.self], forKey: "segments")
        segments = decoded as? [SFTranscriptionSegment] ?? []
        storedSpeakingRate = coder.decodeDouble(forKey: "speakingRate")
        storedAveragePauseDuration = coder.decodeDouble(forKey: "averagePauseDuration")
    }

    /// The formatted string and segment count.
    open override var description: String {
        "SFTranscription(\"\(formattedString)\", \(segments.count) segments)"
    }
}
