import Foundation

/// One clip of an evaluation manifest.
public struct ManifestEntry: Hashable, Sendable {
    /// Unique clip identifier (the `id` column).
    public var id: String
    /// The set the clip belongs to (the `set` column), e.g. "librispeech-dev-clean".
    public var set: String
    /// BCP-47 language tag as written in the manifest, e.g. "en-US", "sv".
    public var languageTag: String
    /// Duration in seconds (the `duration_s` column), or nil when absent.
    public var durationSeconds: Double?
    /// The audio file, resolved against the manifest's folder.
    public var audioURL: URL
    /// The reference transcript, un-normalised.
    public var referenceText: String

    /// Creates an entry.
    public init(id: String, set: String, languageTag: String, durationSeconds: Double?,
                audioURL: URL, referenceText: String) {
        self.id = id
        self.set = set
        self.languageTag = languageTag
        self.durationSeconds = durationSeconds
        self.audioURL = audioURL
        self.referenceText = referenceText
    }

    /// The ISO 639-1 code to decode in: "en-US" → "en".
    public var language: String { LanguageTag.baseLanguage(of: languageTag) }
}
