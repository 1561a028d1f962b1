// AVURLAsset: an asset created from a URL (what `AVURLAsset(url:)` code makes).

/// Asset option: whether the asset should give a precise duration and
/// timing (always the case on Linux, where durations come from the file's
/// frame count).
public let AVURLAssetPreferPreciseDurationAndTimingKey = "AVURLAssetPreferPreciseDurationAndTimingKey"

/// An asset that loads its media from a URL.
/// - Note: On Linux the URL must be a local file; options are accepted and
///   ignored (timing is always precise).
open class AVURLAsset: AVAsset, @unchecked Sendable {
    /// Creates an asset for the media at a URL.
    public init(url URL: URL, options: [String: Any]? = nil) {
        super.init(sourceURL: URL)
    }

    /// The URL the asset was created with.
    open var url: URL { sourceURL }

    /// The file types an asset can open (as uniform type identifiers).
    open class func audiovisualTypes() -> [String] {
        ["com.microsoft.waveform-audio", "public.aiff-audio", "com.apple.coreaudio-format", "org.xiph.flac",
         "org.xiph.ogg-audio", "public.mp3"]
    }

    /// Whether an asset can be made for a MIME type.
    open class func isPlayableExtendedMIMEType(_ extendedMIMEType: String) -> Bool {
        let type = extendedMIMEType.lowercased()
        return ["audio/wav", "audio/x-wav", "audio/wave", "audio/aiff", "audio/x-aiff", "audio/flac", "audio/ogg",
                "audio/opus", "audio/mpeg", "audio/mp3"].contains { type.hasPrefix($0) }
    }
}
