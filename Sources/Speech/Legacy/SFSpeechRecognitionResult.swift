import Foundation

/// A recognition result: the best transcription, its alternatives, whether
/// it is final, and (for final results) metadata about the speech.
///
/// The result handler receives zero or more partial results (`isFinal ==
/// false`), then exactly one final result or an error.
/// - Note: On Linux alternatives come from the engine's beam search;
///   `transcriptions.first` is `bestTranscription`.
@available(iOS 10.0, macOS 10.15, *)
open class SFSpeechRecognitionResult: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked: immutable after init.

    /// The transcription with the highest confidence.
    open var bestTranscription: SFTranscription { transcriptions[0] }
    /// Candidate transcriptions, most confident first (never empty).
    open private(set) var transcriptions: [SFTranscription]
    /// Whether recognition is complete; a final transcription never changes.
    open private(set) var isFinal: Bool
    /// Speaking rate, pauses and voice analytics; nil in partial results.
    @available(iOS 14.5, macOS 11.3, *)
    open var speechRecognitionMetadata: SFSpeechRecognitionMetadata? { storedMetadata }

    private let storedMetadata: SFSpeechRecognitionMetadata?

    init(transcriptions: [SFTranscription], isFinal: Bool, metadata: SFSpeechRecognitionMetadata?) {
        precondition(!transcriptions.isEmpty, "a result has at least its best transcription")
        self.transcriptions = transcriptions
        self.isFinal = isFinal
        self.storedMetadata = metadata
    }

    /// Returns `self`: results are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// `true`: results decode securely.
    public static var supportsSecureCoding: Bool { true }

    /// Encodes the transcriptions, finality and metadata.
    open func encode(with coder: NSCoder) {
        coder.encode(transcriptions as NSArray, forKey: "transcriptions")
        coder.encode(isFinal, forKey: "isFinal")
        coder.encode(storedMetadata, forKey: "metadata")
    }

    /// Decodes a result written by `encode(with:)`.
    public required init?(coder: NSCoder) {
        let decoded = coder.decodeObject(of: [NSArray.self, SFTranscription.self], forKey: "transcriptions")
        guard let transcriptions = decoded as? [SFTranscription], !transcriptions.isEmpty else { return nil }
        self.transcriptions = transcriptions
        isFinal = coder.decodeBool(forKey: "isFinal")
        storedMetadata = coder.decodeObject(of: SFSpeechRecognitionMetadata.self, forKey: "metadata")
    }

    /// The best transcription and finality.
    open override var description: String {
        "SFSpeechRecognitionResult(\"\(bestTranscription.formattedString)\", isFinal: \(isFinal))"
    }
}
