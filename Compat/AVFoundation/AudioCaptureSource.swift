// The seam between the engine's capture loop and where audio comes from:
// ALSA in production, a scripted source in tests.

/// What one read from a capture source produced.
enum CaptureRead {
    /// Interleaved Float samples (`frames × channels`), nominally in [-1, 1].
    case samples([Float])
    /// The source has no more audio (e.g. an ALSA `file` plugin's infile ended).
    case endOfInput
    /// The device failed or disappeared.
    case failure(NSError)
}

/// A source of captured audio for `AVAudioInputNode`.
///
/// `open()` negotiates the stream; `read()` blocks until about one period is
/// available (or returns at once for sources that do not block: the capture
/// loop paces itself to real time).
protocol AudioCaptureSource: AnyObject {
    /// The stream's shape once open.
    var parameters: ALSAStreamParameters { get }
    /// Opens the device; throws a typed error if it cannot be used.
    func open() throws
    /// Reads about one period.
    func read() -> CaptureRead
    /// Closes the device; safe to call twice.
    func close()
}
