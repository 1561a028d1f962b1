// AVMediaType: the kind of media in a track or a capture device.

/// An identifier for a kind of media: what `AVAssetTrack.mediaType` reports
/// and `loadTracks(withMediaType:)` / `AVCaptureDevice` authorization take.
public struct AVMediaType: Hashable, RawRepresentable, @unchecked Sendable {
    /// The media type's identifier (a four-character code, as on Apple platforms).
    public let rawValue: String
    /// Creates a media type from its identifier.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a media type from its identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Audio.
    public static let audio = AVMediaType(rawValue: "soun")
    /// Video.
    public static let video = AVMediaType(rawValue: "vide")
    /// Text.
    public static let text = AVMediaType(rawValue: "text")
    /// Closed captions.
    public static let closedCaption = AVMediaType(rawValue: "clcp")
    /// Subtitles.
    public static let subtitle = AVMediaType(rawValue: "sbtl")
    /// Timed metadata.
    public static let metadata = AVMediaType(rawValue: "meta")
    /// Muxed media.
    public static let muxed = AVMediaType(rawValue: "muxx")
}
