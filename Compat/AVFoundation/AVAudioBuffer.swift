// AVAudioBuffer: the abstract base of audio buffers (API.md §2.4).

#if canImport(Glibc)
import Glibc
#endif

/// A buffer of audio data in a given format; `AVAudioPCMBuffer` is the
/// concrete kind speech code uses.
/// - Note: Buffers are `@unchecked Sendable` so that they can cross into
///   tasks and streams; as on Apple platforms, do not mutate one from two
///   threads at once.
open class AVAudioBuffer: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    /// The format of the audio in the buffer.
    public let format: AVAudioFormat
    /// The buffer's Core Audio buffer list, allocated with room for its buffers.
    let bufferList: UnsafeMutableAudioBufferListPointer

    /// Creates a buffer for a format with `bufferCount` empty Core Audio
    /// buffers; subclasses allocate the storage and fill them in.
    init(bufferFormat: AVAudioFormat, bufferCount: Int = 0) {
        self.format = bufferFormat
        bufferList = AudioBufferList.allocate(maximumBuffers: max(bufferCount, 1))
        bufferList.count = bufferCount
        super.init()
    }

    deinit { free(bufferList.unsafeMutablePointer) }

    /// The buffer's underlying audio buffer list, for Core Audio-style code.
    ///
    /// Do not change the list's structure; the samples may be changed. Its
    /// `mDataByteSize` fields express an `AVAudioPCMBuffer`'s `frameLength`.
    open var audioBufferList: UnsafePointer<AudioBufferList> { bufferList.unsafePointer }

    /// The underlying audio buffer list, writable: the number of buffers is
    /// fixed, but `mDataByteSize` may change (an `AVAudioPCMBuffer`'s
    /// `frameLength` follows it).
    open var mutableAudioBufferList: UnsafeMutablePointer<AudioBufferList> { bufferList.unsafeMutablePointer }

    /// Returns a copy of the buffer and its contents.
    open func copy(with zone: NSZone? = nil) -> Any {
        AVAudioBuffer(bufferFormat: format)
    }

    /// Returns a mutable copy of the buffer and its contents (the same as `copy`).
    open func mutableCopy(with zone: NSZone? = nil) -> Any {
        copy(with: zone)
    }
}
