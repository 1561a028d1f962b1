// UnsafeMutableAudioBufferListPointer: the CoreAudio overlay's collection view
// of a variable-length AudioBufferList.

/// A pointer to an `AudioBufferList` seen as a random-access collection of its
/// `AudioBuffer`s, so Swift code can loop over every buffer of a list.
///
/// Writes go straight to the list's memory (`nonmutating set`), as with
/// Apple's type.
public struct UnsafeMutableAudioBufferListPointer: MutableCollection, RandomAccessCollection, @unchecked Sendable {
    /// The list.
    public var unsafeMutablePointer: UnsafeMutablePointer<AudioBufferList>

    /// Wraps a list pointer.
    public init(_ p: UnsafeMutablePointer<AudioBufferList>) {
        unsafeMutablePointer = p
    }

    /// Wraps a list pointer; `nil` for a `nil` pointer.
    public init?(_ p: UnsafeMutablePointer<AudioBufferList>?) {
        guard let p else { return nil }
        self.init(p)
    }

    /// The list as a read-only pointer.
    public var unsafePointer: UnsafePointer<AudioBufferList> { UnsafePointer(unsafeMutablePointer) }

    /// The number of buffers (`mNumberBuffers`); setting it changes the list,
    /// which must have room for that many.
    public var count: Int {
        get { Int(unsafeMutablePointer.pointee.mNumberBuffers) }
        nonmutating set { unsafeMutablePointer.pointee.mNumberBuffers = UInt32(newValue) }
    }

    /// The index of the first buffer (0).
    public var startIndex: Int { 0 }
    /// One past the last buffer.
    public var endIndex: Int { count }

    /// The buffer at `index`, read from or written to the list's memory.
    public subscript(index: Int) -> AudioBuffer {
        get {
            precondition(index >= 0 && index < count, "AudioBufferList index \(index) out of range 0..<\(count)")
            return bufferPointer(index).pointee
        }
        nonmutating set {
            precondition(index >= 0 && index < count, "AudioBufferList index \(index) out of range 0..<\(count)")
            bufferPointer(index).pointee = newValue
        }
    }

    private func bufferPointer(_ index: Int) -> UnsafeMutablePointer<AudioBuffer> {
        (UnsafeMutableRawPointer(unsafeMutablePointer) + AudioBufferList.offset(ofBuffer: index))
            .assumingMemoryBound(to: AudioBuffer.self)
    }
}
