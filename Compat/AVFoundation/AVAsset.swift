// AVAsset: timed media at a URL, modelled by its tracks; on Linux an audio
// file (API.md issue 15: reading media the AVFoundation way).

/// A piece of timed media (an audio file) with tracks and a duration.
///
/// Creating an asset is cheap; the file is opened when a property is first
/// loaded: `try await asset.load(.duration)`,
/// `try await asset.loadTracks(withMediaType: .audio)`.
/// - Note: On Linux an asset is a file libsndfile reads (WAV, AIFF, CAF,
///   W64, FLAC, Ogg Vorbis/Opus, MP3) with exactly one audio track. Other
///   files (M4A/AAC, video) fail to load with `AVErrorFileFormatNotRecognized`
///   in `AVFoundationErrorDomain`; a missing file with `NSCocoaErrorDomain`
///   260 (`fileReadNoSuchFile`).
open class AVAsset: NSObject, AVAsynchronousKeyValueLoading, @unchecked Sendable {
    // @unchecked: the loaded state is guarded by `lock`.

    /// The media file.
    let sourceURL: URL
    private let lock = NSLock()
    private var loaded: Result<(AVAssetMedia, [AVAssetTrack]), NSError>?

    /// Creates an asset for the media at a URL (an `AVURLAsset` on Apple platforms).
    public convenience init(url URL: URL) {
        self.init(sourceURL: URL)
    }

    /// Creates an asset over a file URL.
    init(sourceURL: URL) {
        self.sourceURL = sourceURL
        super.init()
    }

    /// Opens the file once and remembers what it found (or the error).
    func loadedMedia() throws -> (AVAssetMedia, [AVAssetTrack]) {
        lock.lock()
        defer { lock.unlock() }
        if loaded == nil {
            loaded = Result {
                let media = try AVAssetMedia.probe(sourceURL)
                return (media, [AVAssetTrack(asset: self, media: media, trackID: 1)])
            }.mapError { $0 as NSError }
        }
        return try loaded!.get()
    }

    /// Whether the file has been opened (successfully or not).
    var hasLoaded: Bool {
        lock.lock()
        defer { lock.unlock() }
        return loaded != nil
    }

    /// The asset's tracks with a media type.
    public func loadTracks(withMediaType mediaType: AVMediaType) async throws -> [AVAssetTrack] {
        try loadedMedia().1.filter { $0.mediaType == mediaType }
    }

    /// The asset's tracks with a media type, to a completion handler.
    public func loadTracks(withMediaType mediaType: AVMediaType,
                           completionHandler: @escaping @Sendable ([AVAssetTrack]?, (any Error)?) -> Void) {
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                completionHandler(try self.loadedMedia().1.filter { $0.mediaType == mediaType }, nil)
            } catch {
                completionHandler(nil, error)
            }
        }
    }

    /// The track with an identifier, or `nil`.
    public func loadTrack(withTrackID trackID: CMPersistentTrackID) async throws -> AVAssetTrack? {
        try loadedMedia().1.first { $0.trackID == trackID }
    }

    /// The duration (loads the file synchronously).
    @available(iOS, introduced: 4.0, deprecated: 16.0, message: "Use load(.duration) instead")
    @available(macOS, introduced: 10.7, deprecated: 13.0, message: "Use load(.duration) instead")
    open var duration: CMTime { (try? loadedMedia().0.duration) ?? .invalid }

    /// The tracks (loads the file synchronously; empty if it cannot be read).
    @available(iOS, introduced: 4.0, deprecated: 16.0, message: "Use load(.tracks) instead")
    @available(macOS, introduced: 10.7, deprecated: 13.0, message: "Use load(.tracks) instead")
    open var tracks: [AVAssetTrack] { (try? loadedMedia().1) ?? [] }

    /// The tracks with a media type (loads the file synchronously).
    @available(iOS, introduced: 4.0, deprecated: 16.0, message: "Use loadTracks(withMediaType:) instead")
    @available(macOS, introduced: 10.7, deprecated: 13.0, message: "Use loadTracks(withMediaType:) instead")
    open func tracks(withMediaType mediaType: AVMediaType) -> [AVAssetTrack] {
        ((try? loadedMedia().1) ?? []).filter { $0.mediaType == mediaType }
    }

    /// Whether the asset can be read by `AVAssetReader` (loads the file).
    @available(iOS, introduced: 4.3, deprecated: 16.0, message: "Use load(.isReadable) instead")
    @available(macOS, introduced: 10.7, deprecated: 13.0, message: "Use load(.isReadable) instead")
    open var isReadable: Bool { (try? loadedMedia()) != nil }

    /// Whether the asset can be played (loads the file).
    @available(iOS, introduced: 4.3, deprecated: 16.0, message: "Use load(.isPlayable) instead")
    @available(macOS, introduced: 10.7, deprecated: 13.0, message: "Use load(.isPlayable) instead")
    open var isPlayable: Bool { (try? loadedMedia()) != nil }

    /// The keys `statusOfValue(forKey:error:)` knows.
    static let loadableKeys: Set<String> = ["duration", "tracks", "playable", "readable", "isPlayable", "isReadable",
                                            "providesPreciseDurationAndTiming", "preferredRate", "preferredVolume"]

    /// The load state of a key: `.unknown` before loading, then `.loaded` or `.failed`.
    open func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus {
        AVAsset.keyStatus(key, known: AVAsset.loadableKeys, hasLoaded: hasLoaded, load: { try loadedMedia() },
                          error: outError)
    }

    /// Opens the file in the background, then calls `handler`.
    open func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)?) {
        DispatchQueue.global(qos: .userInitiated).async {
            _ = try? self.loadedMedia()
            handler?()
        }
    }

    /// Shared key-status logic for assets and tracks.
    static func keyStatus(_ key: String, known: Set<String>, hasLoaded: Bool, load: () throws -> Any,
                          error outError: NSErrorPointer) -> AVKeyValueStatus {
        guard known.contains(key) else {
            outError?.pointee = NSError(domain: AVFoundationErrorDomain, code: AVErrorOperationNotAllowed, userInfo: [
                NSLocalizedDescriptionKey: "'\(key)' is not a loadable key. Use one of \(known.sorted())."])
            return .failed
        }
        guard hasLoaded else { return .unknown }
        do {
            _ = try load()
            return .loaded
        } catch {
            outError?.pointee = error as NSError
            return .failed
        }
    }
}
