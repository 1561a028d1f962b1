// AVAudioPCMBuffer: PCM audio in memory, reached through per-channel pointers
// (API.md §2.4).

/// A buffer of PCM audio in one of the common formats.
///
/// Deinterleaved buffers hold one block per channel (`stride == 1`,
/// `channelData[ch][frame]`). Interleaved buffers hold one block; channel `ch`'s
/// pointer starts at offset `ch` and `stride == channelCount`, so a sample is
/// `channelData[0][frame * stride + ch]`.
/// - Note: On Linux the storage is allocated and zeroed by the buffer itself.
open class AVAudioPCMBuffer: AVAudioBuffer, @unchecked Sendable {
    /// The number of frames the buffer can hold.
    public let frameCapacity: AVAudioFrameCount
    /// The distance in samples between consecutive frames of one channel.
    public let stride: Int
    /// The sample memory: `frameCapacity × channelCount` samples.
    let sampleMemory: UnsafeMutableRawPointer
    /// One pointer per channel into `sampleMemory`, bound to the sample type.
    private let channelPointerMemory: UnsafeMutableRawPointer
    /// Bytes per frame in each Core Audio buffer of the list.
    private let bytesPerBufferFrame: Int
    /// The capture run that delivered the buffer (an input tap's buffers, and
    /// what `AVAudioConverter` makes of them); `nil` for other buffers. Set
    /// before the buffer is handed on, never changed after.
    package var captureOrigin: CaptureOrigin?

    /// Creates an empty buffer (`frameLength == 0`) for a PCM format.
    ///
    /// Returns `nil` for a format without a common sample format, or when the
    /// byte size would not fit in `UInt32`.
    public init?(pcmFormat format: AVAudioFormat, frameCapacity: AVAudioFrameCount) {
        let bytesPerSample = format.commonFormat.bytesPerSample
        guard bytesPerSample > 0 else { return nil }
        let channels = Int(format.channelCount)
        let totalBytes = Int(frameCapacity) * channels * bytesPerSample
        guard totalBytes <= Int(UInt32.max) else { return nil }
        self.frameCapacity = frameCapacity
        self.stride = format.isInterleaved ? channels : 1
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(totalBytes, 1), alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: max(totalBytes, 1))
        let pointerMemory = UnsafeMutableRawPointer.allocate(
            byteCount: max(channels, 1) * MemoryLayout<UnsafeMutableRawPointer>.stride,
            alignment: MemoryLayout<UnsafeMutableRawPointer>.alignment)
        let channelOffset = format.isInterleaved ? bytesPerSample : Int(frameCapacity) * bytesPerSample
        func bindChannels<Sample>(_: Sample.Type) {
            let samples = memory.bindMemory(to: Sample.self, capacity: max(totalBytes / bytesPerSample, 1))
            let pointers = pointerMemory.bindMemory(to: UnsafeMutablePointer<Sample>.self, capacity: channels)
            for channel in 0..<channels {
                (pointers + channel).initialize(to: samples + channel * channelOffset / bytesPerSample)
            }
        }
        switch format.commonFormat {
        case .pcmFormatFloat32: bindChannels(Float.self)
        case .pcmFormatFloat64: bindChannels(Double.self)
        case .pcmFormatInt16: bindChannels(Int16.self)
        case .pcmFormatInt32: bindChannels(Int32.self)
        case .otherFormat: preconditionFailure("unreachable: non-PCM formats are rejected above")
        }
        sampleMemory = memory
        channelPointerMemory = pointerMemory
        let planes = format.isInterleaved ? 1 : channels
        bytesPerBufferFrame = format.isInterleaved ? channels * bytesPerSample : bytesPerSample
        super.init(bufferFormat: format, bufferCount: planes)
        // The Core Audio view: one buffer per plane, sized by frameLength (0).
        for plane in 0..<planes {
            bufferList[plane] = AudioBuffer(mNumberChannels: UInt32(format.isInterleaved ? channels : 1),
                                            mDataByteSize: 0, mData: memory + plane * channelOffset)
        }
    }

    deinit {
        sampleMemory.deallocate()
        channelPointerMemory.deallocate()
    }

    /// The number of valid frames; at most `frameCapacity`.
    ///
    /// It lives in the `mDataByteSize` fields of `audioBufferList`: setting
    /// one updates the other, as on Apple platforms.
    /// - Precondition: Setting a length above `frameCapacity` is a programmer
    ///   error (Apple raises an exception).
    open var frameLength: AVAudioFrameCount {
        get {
            guard bufferList.count > 0 else { return 0 }
            return min(frameCapacity, AVAudioFrameCount(Int(bufferList[0].mDataByteSize) / bytesPerBufferFrame))
        }
        set {
            precondition(newValue <= frameCapacity,
                         "required condition is false: length <= frameCapacity (\(newValue) > \(frameCapacity))")
            let byteSize = UInt32(Int(newValue) * bytesPerBufferFrame)
            for plane in 0..<bufferList.count { bufferList[plane].mDataByteSize = byteSize }
        }
    }

    /// Per-channel pointers to Float32 samples; `nil` unless the format is Float32.
    open var floatChannelData: UnsafePointer<UnsafeMutablePointer<Float>>? {
        channelData(for: .pcmFormatFloat32)
    }

    /// Per-channel pointers to Int16 samples; `nil` unless the format is Int16.
    open var int16ChannelData: UnsafePointer<UnsafeMutablePointer<Int16>>? {
        channelData(for: .pcmFormatInt16)
    }

    /// Per-channel pointers to Int32 samples; `nil` unless the format is Int32.
    open var int32ChannelData: UnsafePointer<UnsafeMutablePointer<Int32>>? {
        channelData(for: .pcmFormatInt32)
    }

    /// Per-channel pointers to Float64 samples (internal: Apple has no accessor).
    var float64ChannelData: UnsafePointer<UnsafeMutablePointer<Double>>? {
        channelData(for: .pcmFormatFloat64)
    }

    private func channelData<Sample>(for commonFormat: AVAudioCommonFormat)
        -> UnsafePointer<UnsafeMutablePointer<Sample>>? {
        guard format.commonFormat == commonFormat else { return nil }
        return UnsafePointer(channelPointerMemory.assumingMemoryBound(to: UnsafeMutablePointer<Sample>.self))
    }

    /// Returns a new buffer with the same format, capacity, length and samples.
    open override func copy(with zone: NSZone? = nil) -> Any {
        guard let copy = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frameCapacity) else {
            preconditionFailure("a buffer's own format and capacity are always valid")
        }
        let byteCount = Int(frameCapacity) * Int(format.channelCount) * format.commonFormat.bytesPerSample
        copy.sampleMemory.copyMemory(from: sampleMemory, byteCount: byteCount)
        copy.frameLength = frameLength
        return copy
    }

    /// A readable summary with the format and frame counts.
    open override var description: String {
        "<AVAudioPCMBuffer: \(format), frameLength \(frameLength) of \(frameCapacity)>"
    }
}
