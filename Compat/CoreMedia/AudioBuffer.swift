// AudioBuffer: one block of audio samples in an AudioBufferList
// (CoreAudioTypes), as Core Media hands out sample-buffer data.

/// A buffer of audio data: a pointer, its size in bytes, and how many
/// interleaved channels it holds.
///
/// The layout matches Core Audio's C struct (`UInt32`, `UInt32`, pointer), so
/// pointer arithmetic over an `AudioBufferList` works as on Apple platforms.
public struct AudioBuffer: @unchecked Sendable {
    // @unchecked: like the imported C struct, it carries a raw pointer; who
    // owns the memory is the caller's business, as on Apple platforms.

    /// The number of interleaved channels in the buffer.
    public var mNumberChannels: UInt32
    /// The number of valid bytes at `mData`.
    public var mDataByteSize: UInt32
    /// The samples.
    public var mData: UnsafeMutableRawPointer?

    /// Creates an empty buffer (no channels, no data).
    public init() {
        self.init(mNumberChannels: 0, mDataByteSize: 0, mData: nil)
    }

    /// Creates a buffer from every field.
    public init(mNumberChannels: UInt32, mDataByteSize: UInt32, mData: UnsafeMutableRawPointer?) {
        self.mNumberChannels = mNumberChannels
        self.mDataByteSize = mDataByteSize
        self.mData = mData
    }

    /// Creates a buffer over a typed buffer of samples (the CoreAudio overlay's
    /// initializer).
    public init<Element>(_ typedBuffer: UnsafeMutableBufferPointer<Element>, numberOfChannels: Int) {
        self.init(mNumberChannels: UInt32(numberOfChannels),
                  mDataByteSize: UInt32(typedBuffer.count * MemoryLayout<Element>.stride),
                  mData: typedBuffer.baseAddress.map(UnsafeMutableRawPointer.init))
    }
}
