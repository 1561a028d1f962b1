// The async property constants of assets and tracks, as Swift code names them:
// `asset.load(.duration, .tracks)`, `track.load(.formatDescriptions)`.

extension AVPartialAsyncProperty where Root: AVAsset {
    /// The asset's duration.
    public static var duration: AVAsyncProperty<Root, CMTime> {
        assetProperty("duration") { try $0.loadedMedia().0.duration }
    }

    /// The asset's tracks.
    public static var tracks: AVAsyncProperty<Root, [AVAssetTrack]> {
        assetProperty("tracks") { try $0.loadedMedia().1 }
    }

    /// Whether the asset can be played.
    public static var isPlayable: AVAsyncProperty<Root, Bool> {
        assetProperty("playable") { (try? $0.loadedMedia()) != nil }
    }

    /// Whether an `AVAssetReader` can read the asset.
    public static var isReadable: AVAsyncProperty<Root, Bool> {
        assetProperty("readable") { (try? $0.loadedMedia()) != nil }
    }

    /// Whether the duration and timing are precise (always, on Linux).
    public static var providesPreciseDurationAndTiming: AVAsyncProperty<Root, Bool> {
        assetProperty("providesPreciseDurationAndTiming") { _ = try $0.loadedMedia(); return true }
    }

    /// The natural playback rate (1).
    public static var preferredRate: AVAsyncProperty<Root, Float> {
        assetProperty("preferredRate") { _ = try $0.loadedMedia(); return 1 }
    }

    /// The natural playback volume (1).
    public static var preferredVolume: AVAsyncProperty<Root, Float> {
        assetProperty("preferredVolume") { _ = try $0.loadedMedia(); return 1 }
    }

    private static func assetProperty<Value>(_ key: String, _ getter: @escaping @Sendable (Root) throws -> Value)
        -> AVAsyncProperty<Root, Value> {
        AVAsyncProperty(key: key, isLoaded: { $0.hasLoaded }, getter: getter)
    }
}

extension AVPartialAsyncProperty where Root: AVAssetTrack {
    /// The track's time range in its asset.
    public static var timeRange: AVAsyncProperty<Root, CMTimeRange> { trackProperty("timeRange") { $0.media.timeRange } }

    /// The timescale of the track's samples.
    public static var naturalTimeScale: AVAsyncProperty<Root, CMTimeScale> {
        trackProperty("naturalTimeScale") { $0.media.timescale }
    }

    /// The formats of the track's samples.
    public static var formatDescriptions: AVAsyncProperty<Root, [CMFormatDescription]> {
        trackProperty("formatDescriptions") { $0.media.formatDescriptions }
    }

    /// The estimated data rate in bits per second.
    public static var estimatedDataRate: AVAsyncProperty<Root, Float> {
        trackProperty("estimatedDataRate") { $0.media.estimatedDataRate }
    }

    /// Whether the track is enabled.
    public static var isEnabled: AVAsyncProperty<Root, Bool> { trackProperty("enabled") { _ in true } }

    /// Whether the track can be played.
    public static var isPlayable: AVAsyncProperty<Root, Bool> { trackProperty("playable") { _ in true } }

    /// Whether the track's data is in its asset's file.
    public static var isSelfContained: AVAsyncProperty<Root, Bool> { trackProperty("selfContained") { _ in true } }

    /// The bytes of the track's sample data (the file's size on Linux).
    public static var totalSampleDataLength: AVAsyncProperty<Root, Int64> {
        trackProperty("totalSampleDataLength") { $0.media.byteCount }
    }

    private static func trackProperty<Value>(_ key: String, _ getter: @escaping @Sendable (Root) throws -> Value)
        -> AVAsyncProperty<Root, Value> {
        AVAsyncProperty(key: key, isLoaded: { _ in true }, getter: getter)
    }
}
