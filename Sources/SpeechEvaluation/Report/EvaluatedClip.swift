/// One clip after recognition and scoring.
public struct EvaluatedClip: Hashable, Sendable {
    /// The manifest row.
    public var entry: ManifestEntry
    /// What the recogniser wrote, un-normalised.
    public var hypothesis: String
    /// Errors against the reference.
    public var score: ClipScore
    /// Seconds spent recognising the clip, when measured.
    public var processingSeconds: Double?

    /// Creates a clip result.
    public init(entry: ManifestEntry, hypothesis: String, score: ClipScore, processingSeconds: Double? = nil) {
        self.entry = entry
        self.hypothesis = hypothesis
        self.score = score
        self.processingSeconds = processingSeconds
    }
}
