import Foundation
import Speech

/// Builds legacy result objects (`SFSpeechRecognitionResult`,
/// `SFTranscription`, `SFTranscriptionSegment`) from plain values.
///
/// Apple gives these classes no public initializers; the only public way to
/// make one is `init?(coder:)`. The factory writes the values into a keyed
/// archive under the keys the classes' `encode(with:)` uses and decodes the
/// object from it, so adapters hand apps real `SF*` objects.
public enum LegacyResultFactory {
    /// One word of a transcription, as plain values.
    public struct Word: Sendable, Hashable {
        /// The word's text.
        public var text: String
        /// Seconds from the start of the audio to the word.
        public var timestamp: TimeInterval
        /// Seconds the word lasts.
        public var duration: TimeInterval
        /// Confidence in [0, 1]; 0 in partial results.
        public var confidence: Float
        /// Other interpretations of the word.
        public var alternatives: [String]

        /// Creates a word.
        public init(text: String, timestamp: TimeInterval, duration: TimeInterval, confidence: Float,
                    alternatives: [String] = []) {
            self.text = text
            self.timestamp = timestamp
            self.duration = duration
            self.confidence = confidence
            self.alternatives = alternatives
        }
    }

    /// A transcription whose `formattedString` is the words joined by spaces
    /// (or `formattedString` when given) and whose segments point into it.
    /// - Throws: `MigrationError` (`.adapterFailure`) if the archive cannot be decoded.
    public static func transcription(words: [Word], formattedString: String? = nil) throws -> SFTranscription {
        let text = formattedString ?? words.map(\.text).joined(separator: " ")
        let nsText = text as NSString
        var searchStart = 0
        var segments: [SFTranscriptionSegment] = []
        for word in words {
            let searchRange = NSRange(location: searchStart, length: max(0, nsText.length - searchStart))
            var range = nsText.range(of: word.text, options: [], range: searchRange)
            if range.location == NSNotFound { range = NSRange(location: searchStart, length: 0) }
            searchStart = range.location + range.length
            segments.append(try segment(word, range: range))
        }
        let transcription: SFTranscription? = try decode { archiver in
            archiver.encode(text as NSString, forKey: "formattedString")
            archiver.encode(segments as NSArray, forKey: "segments")
            archiver.encode(0.0, forKey: "speakingRate")
            archiver.encode(0.0, forKey: "averagePauseDuration")
        } as: { SFTranscription(coder: $0) }
        guard let transcription else { throw MigrationError(.adapterFailure, "An SFTranscription could not be built.") }
        return transcription
    }

    /// A result with `transcriptions` (best first) and finality.
    /// - Throws: `MigrationError` (`.adapterFailure`) if `transcriptions` is
    ///   empty or the archive cannot be decoded.
    public static func result(transcriptions: [SFTranscription], isFinal: Bool) throws -> SFSpeechRecognitionResult {
        let result: SFSpeechRecognitionResult? = try decode { archiver in
            archiver.encode(transcriptions as NSArray, forKey: "transcriptions")
            archiver.encode(isFinal, forKey: "isFinal")
            archiver.encode(nil as Any?, forKey: "metadata")
        } as: { SFSpeechRecognitionResult(coder: $0) }
        guard let result else {
            throw MigrationError(.adapterFailure, "An SFSpeechRecognitionResult needs at least one transcription.")
        }
        return result
    }

    private static func segment(_ word: Word, range: NSRange) throws -> SFTranscriptionSegment {
        let segment: SFTranscriptionSegment? = try decode { archiver in
            archiver.encode(word.text as NSString, forKey: "substring")
            archiver.encode(range.location, forKey: "location")
            archiver.encode(range.length, forKey: "length")
            archiver.encode(word.timestamp, forKey: "timestamp")
            archiver.encode(word.duration, forKey: "duration")
            archiver.encode(word.confidence, forKey: "confidence")
            archiver.encode(word.alternatives.map { $0 as NSString } as NSArray, forKey: "alternativeSubstrings")
            archiver.encode(nil as Any?, forKey: "voiceAnalytics")
        } as: { SFTranscriptionSegment(coder: $0) }
        guard let segment else { throw MigrationError(.adapterFailure, "An SFTranscriptionSegment could not be built.") }
        return segment
    }

    /// Encodes with `write`, then decodes the root object with `make`.
    private static func decode<T>(_ write: (NSKeyedArchiver) -> Void, as make: (NSKeyedUnarchiver) -> T?) throws -> T? {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        write(archiver)
        archiver.finishEncoding()
        do {
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
            unarchiver.requiresSecureCoding = false
            unarchiver.decodingFailurePolicy = .setErrorAndReturn
            defer { unarchiver.finishDecoding() }
            return make(unarchiver)
        } catch {
            throw MigrationError(.adapterFailure, "A legacy result archive could not be read.", underlying: error)
        }
    }
}
