// AVAudioBuffer: the abstract base of audio buffers (API.md §2.4).

/// A buffer of audio data in a given format; `AVAudioPCMBuffer` is the
/// concrete kind speech code uses.
/// - Note: On Linux there is no `audioBufferList`; reach samples through
///   `AVAudioPCMBuffer`'s channel-data pointers. Buffers are `@unchecked
///   Sendable` so that they can cross into tasks and streams; as on Apple
///   platforms, do not mutate one from two threads at once.
open class AVAudioBuffer: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    /// The format of the audio in the buffer.
    public let format: AVAudioFormat

    /// Creates a buffer for a format; subclasses allocate the storage.
    init(bufferFormat: AVAudioFormat) {
        self.format = bufferFormat
        super.init()
    }

    /// Returns a copy of the buffer and its contents.
    open func copy(with zone: NSZone? = nil) -> Any {
        AVAudioBuffer(bufferFormat: format)
    }

    /// Returns a mutable copy of the buffer and its contents (the same as `copy`).
    open func mutableCopy(with zone: NSZone? = nil) -> Any {
        copy(with: zone)
    }
}
