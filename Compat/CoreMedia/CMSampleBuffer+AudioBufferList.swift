// Reaching a sample buffer's audio as an AudioBufferList: the C-style calls
// sample-reading loops use after `copyNextSampleBuffer()`, and the overlay's
// `withAudioBufferList`.

import Foundation

/// Flag: make every buffer in the list start on a 16-byte boundary (copying
/// into a new block buffer if needed).
public let kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment: UInt32 = 1 << 0
/// A required parameter was `nil`.
public let kCMSampleBufferError_RequiredParameterMissing: OSStatus = -12731
/// A sample index or frame range is outside the buffer.
public let kCMSampleBufferError_SampleIndexOutOfRange: OSStatus = -12734
/// The array or buffer list passed in is too small.
public let kCMSampleBufferError_ArrayTooSmall: OSStatus = -12737
/// The media format does not allow the operation (e.g. PCM copies of compressed audio).
public let kCMSampleBufferError_InvalidMediaFormat: OSStatus = -12743

extension CMSampleBuffer {
    /// Options for `withAudioBufferList(blockBufferMemoryAllocator:flags:body:)`.
    public struct Flags: OptionSet, Sendable {
        /// The raw flag bits.
        public let rawValue: UInt32
        /// Creates flags from their bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Align every buffer to 16 bytes.
        public static let audioBufferListAssure16ByteAlignment =
            Flags(rawValue: kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment)
    }

    /// Calls `body` with the samples as an audio buffer list and the block
    /// buffer that keeps them alive (the Core Media overlay's accessor).
    /// - Throws: An `NSOSStatusErrorDomain` error with the status of
    ///   `CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer`.
    public func withAudioBufferList<Result>(blockBufferMemoryAllocator: CFAllocator? = kCFAllocatorDefault,
                                            flags: Flags = [],
                                            body: (UnsafeMutableAudioBufferListPointer, CMBlockBuffer) throws -> Result)
        throws -> Result {
        let list = AudioBufferList.allocate(maximumBuffers: max(planeOffsets.count, 1))
        defer { free(list.unsafeMutablePointer) }
        var block: CMBlockBuffer?
        let status = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
            self, bufferListSizeNeededOut: nil, bufferListOut: list.unsafeMutablePointer,
            bufferListSize: AudioBufferList.sizeInBytes(maximumBuffers: list.count), blockBufferAllocator: nil,
            blockBufferMemoryAllocator: blockBufferMemoryAllocator, flags: flags.rawValue, blockBufferOut: &block)
        guard status == noErr, let block else {
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(status), userInfo: [
                NSLocalizedDescriptionKey: "The sample buffer has no data to reach as an audio buffer list."])
        }
        return try body(list, block)
    }

    /// The block buffer and plane offsets to hand out, re-laid on 16-byte
    /// boundaries when asked and needed.
    func planes(aligned: Bool) -> (CMBlockBuffer, [Int])? {
        guard let dataBuffer else { return nil }
        guard aligned, planeOffsets.contains(where: { $0 % 16 != 0 }) else { return (dataBuffer, planeOffsets) }
        let stride = (planeByteCount + 15) / 16 * 16
        let copy = CMBlockBuffer(length: stride * planeOffsets.count)
        let offsets = planeOffsets.indices.map { $0 * stride }
        for (from, to) in zip(planeOffsets, offsets) {
            (copy.bytes + to).copyMemory(from: dataBuffer.bytes + from, byteCount: planeByteCount)
        }
        return (copy, offsets)
    }

    /// The channels in each buffer of the list: all of them when
    /// interleaved, one per plane otherwise.
    var channelsPerPlane: UInt32 {
        let channels = formatDescription?.audioStreamBasicDescription?.mChannelsPerFrame ?? 1
        return planeOffsets.count > 1 ? 1 : channels
    }
}

/// Fills `bufferListOut` with buffers pointing into the sample buffer's
/// bytes and returns, retained, the block buffer that owns them.
///
/// With `bufferListOut` `nil` it only reports the list size needed in
/// `bufferListSizeNeededOut`. Interleaved audio gives one buffer holding every
/// channel; non-interleaved audio one buffer per channel.
/// - Returns: `noErr`; `kCMSampleBufferError_ArrayTooSmall` when
///   `bufferListSize` cannot hold the buffers (ask for the size first, or use
///   `AudioBufferList.allocate(maximumBuffers:)`);
///   `kCMSampleBufferError_RequiredParameterMissing` without `blockBufferOut`
///   or without data.
/// - Note: On Linux the allocators are ignored (there is only the default).
@discardableResult
public func CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
    _ sbuf: CMSampleBuffer, bufferListSizeNeededOut: UnsafeMutablePointer<Int>?,
    bufferListOut: UnsafeMutablePointer<AudioBufferList>?, bufferListSize: Int,
    blockBufferAllocator: CFAllocator?, blockBufferMemoryAllocator: CFAllocator?, flags: UInt32,
    blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>?) -> OSStatus {
    let aligned = flags & kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment != 0
    let needed = AudioBufferList.sizeInBytes(maximumBuffers: max(sbuf.planeOffsets.count, 1))
    bufferListSizeNeededOut?.pointee = needed
    guard let bufferListOut else { return noErr }
    guard bufferListSize >= needed else { return kCMSampleBufferError_ArrayTooSmall }
    guard let blockBufferOut, let (block, offsets) = sbuf.planes(aligned: aligned) else {
        return kCMSampleBufferError_RequiredParameterMissing
    }
    let list = UnsafeMutableAudioBufferListPointer(bufferListOut)
    list.count = offsets.count
    for (index, offset) in offsets.enumerated() {
        list[index] = AudioBuffer(mNumberChannels: sbuf.channelsPerPlane,
                                  mDataByteSize: UInt32(min(sbuf.planeByteCount, block.dataLength - offset)),
                                  mData: block.bytes + offset)
    }
    blockBufferOut.pointee = block
    return noErr
}

/// Copies `numFrames` PCM frames from `frameOffset` into the buffers of
/// `bufferList` (for example an `AVAudioPCMBuffer`'s `mutableAudioBufferList`
/// after setting its `frameLength`), setting each buffer's `mDataByteSize` to
/// the bytes copied.
/// - Returns: `noErr`; `kCMSampleBufferError_InvalidMediaFormat` for
///   compressed audio; `kCMSampleBufferError_SampleIndexOutOfRange` for frames
///   outside the buffer; `kCMSampleBufferError_ArrayTooSmall` when the list has
///   the wrong number of buffers or a buffer's `mDataByteSize` is too small.
@discardableResult
public func CMSampleBufferCopyPCMDataIntoAudioBufferList(_ sbuf: CMSampleBuffer, at frameOffset: Int32,
                                                         frameCount numFrames: Int32,
                                                         into bufferList: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
    guard let description = sbuf.formatDescription?.audioStreamBasicDescription,
          description.mFormatID == kAudioFormatLinearPCM, let dataBuffer = sbuf.dataBuffer else {
        return kCMSampleBufferError_InvalidMediaFormat
    }
    guard frameOffset >= 0, numFrames >= 0, Int(frameOffset) + Int(numFrames) <= sbuf.numSamples else {
        return kCMSampleBufferError_SampleIndexOutOfRange
    }
    let list = UnsafeMutableAudioBufferListPointer(bufferList)
    let bytesPerFrame = Int(description.mBytesPerFrame)
    let byteCount = Int(numFrames) * bytesPerFrame
    // A buffer made from too few bytes for its sample count has nothing there to copy.
    guard sbuf.planeOffsets.allSatisfy({ $0 + (Int(frameOffset) + Int(numFrames)) * bytesPerFrame <= dataBuffer.dataLength })
    else { return kCMSampleBufferError_SampleIndexOutOfRange }
    guard list.count == sbuf.planeOffsets.count,
          list.allSatisfy({ Int($0.mDataByteSize) >= byteCount && ($0.mData != nil || byteCount == 0) }) else {
        return kCMSampleBufferError_ArrayTooSmall
    }
    for (index, planeOffset) in sbuf.planeOffsets.enumerated() {
        var buffer = list[index]
        if let destination = buffer.mData {
            destination.copyMemory(from: dataBuffer.bytes + planeOffset + Int(frameOffset) * bytesPerFrame,
                                   byteCount: byteCount)
        }
        buffer.mDataByteSize = UInt32(byteCount)
        list[index] = buffer
    }
    return noErr
}
