// AVAssetReaderTrackOutput: decoded samples of one track, in the output
// settings asked for.

/// Reads a track's samples as `CMSampleBuffer`s of linear PCM.
///
/// `outputSettings` uses the `AV…Key` constants: `AVFormatIDKey`
/// (`kAudioFormatLinearPCM`), `AVLinearPCMBitDepthKey` (16, 24 or 32;
/// default 16), `AVLinearPCMIsFloatKey` (default false),
/// `AVLinearPCMIsNonInterleaved` (default false), `AVLinearPCMIsBigEndianKey`
/// (must be false), and optionally `AVSampleRateKey` and
/// `AVNumberOfChannelsKey` to resample or remix (fewer channels are mixed
/// down). With `nil` settings the samples come in the file's own PCM format.
/// Each sample buffer holds up to 8192 frames, time-stamped in the output
/// rate from the start of the reader's `timeRange`.
/// - Note: On Linux `nil` settings for a compressed file (FLAC, Ogg, MP3)
///   give decoded 32-bit float interleaved PCM, not compressed packets, and
///   8-bit files give 16-bit samples. Settings the reader cannot produce
///   (a compressed `AVFormatIDKey`, big-endian, 8-bit) make `startReading()`
///   fail with `AVErrorUnknown` and a message saying what to change.
open class AVAssetReaderTrackOutput: AVAssetReaderOutput, @unchecked Sendable {
    /// The track read.
    public let track: AVAssetTrack
    /// The settings asked for, or `nil` for the track's own format.
    public let outputSettings: [String: Any]?
    private var decoder: AudioTrackDecoder?

    /// Creates an output for a track, decoding to `outputSettings`.
    public init(track: AVAssetTrack, outputSettings: [String: Any]?) {
        self.track = track
        self.outputSettings = outputSettings
        super.init()
    }

    /// The track's media type.
    open override var mediaType: AVMediaType { track.mediaType }

    /// The next buffer of decoded samples, or `nil` at the end, after a
    /// failure (the reader's `status` is then `.failed`) or a cancel.
    open override func copyNextSampleBuffer() -> CMSampleBuffer? {
        lock.lock()
        defer { lock.unlock() }
        guard let reader, reader.status == .reading, !isFinished, let decoder else { return nil }
        do {
            if let buffer = try decoder.nextSampleBuffer() { return buffer }
            finish()
        } catch {
            reader.fail(error as NSError)
            release()
        }
        return nil
    }

    override func belongs(to asset: AVAsset) -> Bool { track.asset === asset }

    override func prepare(timeRange: CMTimeRange) throws {
        lock.lock()
        defer { lock.unlock() }
        decoder = try AudioTrackDecoder(media: track.media, settings: outputSettings, timeRange: timeRange)
    }

    override func release() { decoder = nil }
}
