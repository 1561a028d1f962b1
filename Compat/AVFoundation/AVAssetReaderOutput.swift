// AVAssetReaderOutput: the abstract output an AVAssetReader hands sample
// buffers out through.

/// Reads one stream of an asset as sample buffers; use the concrete
/// `AVAssetReaderTrackOutput`.
open class AVAssetReaderOutput: NSObject, @unchecked Sendable {
    // @unchecked: subclasses guard their decoding state with `lock`.

    /// Serializes `copyNextSampleBuffer()` and the decoding state it changes.
    let lock = NSLock()
    /// The reader the output was added to.
    weak var reader: AVAssetReader?
    /// Guards `finished`, which the reader reads while an output decodes.
    private let finishedLock = NSLock()
    private var finished = false

    /// Creates an output (for subclasses).
    override init() { super.init() }

    /// The kind of media the output reads.
    open var mediaType: AVMediaType { .audio }

    /// Whether sample buffers are copies the caller may modify.
    /// - Note: On Linux every sample buffer owns its bytes, so this changes nothing.
    open var alwaysCopiesSampleData = true

    /// Whether `reset(forReadingTimeRanges:)` may be used.
    /// - Note: Not supported on Linux: reading is one forward pass.
    open var supportsRandomAccess = false

    /// The next sample buffer, or `nil` when the output is drained, the
    /// reader failed or was cancelled, or reading has not started.
    open func copyNextSampleBuffer() -> CMSampleBuffer? { nil }

    /// Declares the configuration final (nothing to do on Linux).
    open func markConfigurationAsFinal() {}

    /// Whether the output has handed out all its samples.
    var isFinished: Bool {
        finishedLock.lock()
        defer { finishedLock.unlock() }
        return finished
    }

    /// Whether the output reads a track of `asset` (subclasses answer).
    func belongs(to asset: AVAsset) -> Bool { false }

    /// Links the output to its reader.
    func attach(to reader: AVAssetReader) { self.reader = reader }

    /// Opens what reading needs; throws for settings that cannot be honoured.
    func prepare(timeRange: CMTimeRange) throws {}

    /// Drops decoding resources (after a failure or the end); the caller holds `lock`.
    func release() {}

    /// Drops decoding resources after `cancelReading()`.
    func cancel() {
        lock.lock()
        defer { lock.unlock() }
        release()
    }

    /// Marks the output drained and tells the reader, which completes once
    /// every output is drained.
    func finish() {
        finishedLock.lock()
        finished = true
        finishedLock.unlock()
        release()
        reader?.outputFinished()
    }
}
