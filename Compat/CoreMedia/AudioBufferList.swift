// AudioBufferList: a variable-length list of AudioBuffers (CoreAudioTypes).

import Foundation

/// A list of audio buffers: one for interleaved audio, one per channel for
/// non-interleaved audio.
///
/// As in C, the struct declares a single `mBuffers` element; lists with more
/// buffers are allocated bigger (`AudioBufferList.allocate(maximumBuffers:)`)
/// and reached through `UnsafeMutableAudioBufferListPointer`.
public struct AudioBufferList: @unchecked Sendable {
    // @unchecked: it holds AudioBuffers, which carry raw pointers.

    /// The number of buffers in the list.
    public var mNumberBuffers: UInt32
    /// The first buffer; further ones follow it in memory.
    public var mBuffers: AudioBuffer

    /// Creates an empty list (no buffers).
    public init() {
        self.init(mNumberBuffers: 0, mBuffers: AudioBuffer())
    }

    /// Creates a list from its fields.
    public init(mNumberBuffers: UInt32, mBuffers: AudioBuffer) {
        self.mNumberBuffers = mNumberBuffers
        self.mBuffers = mBuffers
    }

    /// The bytes a list of `maximumBuffers` buffers needs.
    public static func sizeInBytes(maximumBuffers: Int) -> Int {
        precondition(maximumBuffers >= 1, "AudioBufferList needs at least one buffer")
        return MemoryLayout<AudioBufferList>.size - MemoryLayout<AudioBuffer>.size
            + maximumBuffers * MemoryLayout<AudioBuffer>.stride
    }

    /// Allocates a zeroed list with room for `maximumBuffers` buffers and
    /// `mNumberBuffers` set to that count; free it with `free(_:)` of its
    /// `unsafeMutablePointer` (it comes from `calloc`, as on Apple platforms).
    public static func allocate(maximumBuffers: Int) -> UnsafeMutableAudioBufferListPointer {
        let byteCount = sizeInBytes(maximumBuffers: maximumBuffers)
        guard let raw = calloc(byteCount, 1) else {
            preconditionFailure("AudioBufferList.allocate: out of memory for \(byteCount) bytes")
        }
        let list = raw.bindMemory(to: AudioBufferList.self, capacity: 1)
        list.pointee.mNumberBuffers = UInt32(maximumBuffers)
        return UnsafeMutableAudioBufferListPointer(list)
    }

    /// The byte offset of buffer `index` from the start of a list.
    static func offset(ofBuffer index: Int) -> Int {
        (MemoryLayout<AudioBufferList>.offset(of: \AudioBufferList.mBuffers) ?? 8)
            + index * MemoryLayout<AudioBuffer>.stride
    }
}
