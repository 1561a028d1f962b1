// AVAssetTrack: one track of an asset; on Linux the audio stream of a file.

/// A track of media in an asset: its media type, time range and formats.
/// - Note: On Linux every asset has exactly one track: audio, track ID 1,
///   starting at zero. `formatDescriptions` holds the file's on-disk format
///   (e.g. `kAudioFormatFLAC` or 16-bit linear PCM).
open class AVAssetTrack: NSObject, AVAsynchronousKeyValueLoading, @unchecked Sendable {
    // @unchecked: immutable after creation (`asset` is a weak reference).

    /// The asset the track belongs to.
    public private(set) weak var asset: AVAsset?
    /// The track's identifier within its asset.
    public let trackID: CMPersistentTrackID
    /// The audio stream the track reads.
    let media: AVAssetMedia

    /// Creates the track of an opened file.
    init(asset: AVAsset, media: AVAssetMedia, trackID: CMPersistentTrackID) {
        self.asset = asset
        self.media = media
        self.trackID = trackID
        super.init()
    }

    /// The kind of media: `.audio`.
    open var mediaType: AVMediaType { .audio }

    /// The track's time range: from zero for the file's length.
    @available(iOS, introduced: 4.0, deprecated: 16.0, message: "Use load(.timeRange) instead")
    @available(macOS, introduced: 10.7, deprecated: 13.0, message: "Use load(.timeRange) instead")
    open var timeRange: CMTimeRange { media.timeRange }

    /// The timescale of the track's samples: the sample rate.
    @available(iOS, introduced: 4.0, deprecated: 16.0, message: "Use load(.naturalTimeScale) instead")
    @available(macOS, introduced: 10.7, deprecated: 13.0, message: "Use load(.naturalTimeScale) instead")
    open var naturalTimeScale: CMTimeScale { media.timescale }

    /// The track's format descriptions (`CMAudioFormatDescription`s).
    @available(iOS, introduced: 4.0, deprecated: 16.0, message: "Use load(.formatDescriptions) instead")
    @available(macOS, introduced: 10.7, deprecated: 13.0, message: "Use load(.formatDescriptions) instead")
    open var formatDescriptions: [Any] { media.formatDescriptions }

    /// The estimated data rate in bits per second.
    @available(iOS, introduced: 4.0, deprecated: 16.0, message: "Use load(.estimatedDataRate) instead")
    @available(macOS, introduced: 10.7, deprecated: 13.0, message: "Use load(.estimatedDataRate) instead")
    open var estimatedDataRate: Float { media.estimatedDataRate }

    /// Whether the track is enabled (always).
    @available(iOS, introduced: 4.0, deprecated: 16.0, message: "Use load(.isEnabled) instead")
    @available(macOS, introduced: 10.7, deprecated: 13.0, message: "Use load(.isEnabled) instead")
    open var isEnabled: Bool { true }

    /// Whether the track can be played (always, once loaded).
    @available(iOS, introduced: 5.0, deprecated: 16.0, message: "Use load(.isPlayable) instead")
    @available(macOS, introduced: 10.8, deprecated: 13.0, message: "Use load(.isPlayable) instead")
    open var isPlayable: Bool { true }

    /// The keys `statusOfValue(forKey:error:)` knows.
    static let loadableKeys: Set<String> = ["timeRange", "naturalTimeScale", "formatDescriptions", "estimatedDataRate",
                                            "enabled", "playable", "isEnabled", "isPlayable", "totalSampleDataLength",
                                            "selfContained", "isSelfContained", "mediaType"]

    /// A track is loaded with its asset: every known key is `.loaded`.
    open func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus {
        AVAsset.keyStatus(key, known: AVAssetTrack.loadableKeys, hasLoaded: true, load: { media }, error: outError)
    }

    /// Calls `handler` at once on a background queue: a track's values are
    /// loaded with its asset.
    open func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)?) {
        DispatchQueue.global(qos: .userInitiated).async { handler?() }
    }
}

extension AVAssetMedia {
    /// From zero for the file's length.
    var timeRange: CMTimeRange { CMTimeRange(start: CMTime(value: 0, timescale: timescale), duration: duration) }

    /// The on-disk format as a Core Media description.
    var formatDescriptions: [CMFormatDescription] { [fileFormat.formatDescription] }

    /// Bits per second over the file (header included).
    var estimatedDataRate: Float {
        let seconds = duration.seconds
        return seconds > 0 ? Float(Double(byteCount * 8) / seconds) : 0
    }
}
