import AVFoundation
import CoreMedia
import Testing

/// A sample buffer's bytes through CMBlockBuffer and AudioBufferList, the way
/// AVAssetReader loops read them.
@Suite struct CMSampleBufferAudioBufferListTests {
    private func sampleBuffer(interleaved: Bool, frames: Int = 5) throws -> (CMSampleBuffer, AVAudioPCMBuffer) {
        let format = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 8_000, channels: 2,
                                                interleaved: interleaved))
        let planar: [[Float]] = [(0..<frames).map { Float($0 + 1) / 32_768 }, (0..<frames).map { -Float($0 + 1) / 32_768 }]
        let pcm = AudioSignals.buffer(format, planar: planar)
        return (CMSampleBuffer(pcmBuffer: pcm, presentationTimeStamp: CMTime(value: 80, timescale: 8_000)), pcm)
    }

    private func int16s(_ buffer: AudioBuffer) -> [Int16] {
        Array(UnsafeBufferPointer(start: buffer.mData?.assumingMemoryBound(to: Int16.self),
                                  count: Int(buffer.mDataByteSize) / 2))
    }

    @Test func interleavedAudioIsOneBufferOfEveryChannel() throws {
        let (sample, _) = try sampleBuffer(interleaved: true)
        var list = AudioBufferList()
        var block: CMBlockBuffer?
        let status = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
            sample, bufferListSizeNeededOut: nil, bufferListOut: &list, bufferListSize: MemoryLayout<AudioBufferList>.size,
            blockBufferAllocator: nil, blockBufferMemoryAllocator: nil, flags: 0, blockBufferOut: &block)
        #expect(status == noErr)
        #expect(list.mNumberBuffers == 1 && list.mBuffers.mNumberChannels == 2)
        #expect(int16s(list.mBuffers) == [1, -1, 2, -2, 3, -3, 4, -4, 5, -5])
        let retained = try #require(block)
        #expect(CMBlockBufferGetDataLength(retained) == 20 && CMSampleBufferGetDataBuffer(sample) === retained)
        #expect(CMTimeRangeGetEnd(CMTimeRange(start: sample.presentationTimeStamp, duration: sample.duration))
                == CMTime(value: 85, timescale: 8_000))
    }

    @Test func nonInterleavedAudioNeedsALargerListAndGetsAlignedPlanes() throws {
        let (sample, _) = try sampleBuffer(interleaved: false)
        var needed = 0
        var single = AudioBufferList()
        var block: CMBlockBuffer?
        let tooSmall = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
            sample, bufferListSizeNeededOut: &needed, bufferListOut: &single, bufferListSize: MemoryLayout<AudioBufferList>.size,
            blockBufferAllocator: nil, blockBufferMemoryAllocator: nil, flags: 0, blockBufferOut: &block)
        #expect(tooSmall == kCMSampleBufferError_ArrayTooSmall && needed == AudioBufferList.sizeInBytes(maximumBuffers: 2))
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        let status = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
            sample, bufferListSizeNeededOut: nil, bufferListOut: list.unsafeMutablePointer, bufferListSize: needed,
            blockBufferAllocator: kCFAllocatorDefault, blockBufferMemoryAllocator: kCFAllocatorDefault,
            flags: kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment, blockBufferOut: &block)
        #expect(status == noErr && list.count == 2)
        #expect(list.map { int16s($0) } == [[1, 2, 3, 4, 5], [-1, -2, -3, -4, -5]])
        // 10-byte planes: the second one moved to a 16-byte boundary in a new block buffer.
        #expect(list.allSatisfy { Int(bitPattern: $0.mData) % 16 == 0 && $0.mNumberChannels == 1 })
        #expect(block !== CMSampleBufferGetDataBuffer(sample))
    }

    @Test func pcmCopiesFillAnAudioPCMBufferList() throws {
        let (sample, original) = try sampleBuffer(interleaved: false)
        let pcm = try #require(AVAudioPCMBuffer(pcmFormat: original.format, frameCapacity: 8))
        #expect(CMSampleBufferCopyPCMDataIntoAudioBufferList(sample, at: 0, frameCount: 5, into: pcm.mutableAudioBufferList)
                == kCMSampleBufferError_ArrayTooSmall)
        pcm.frameLength = 3
        #expect(CMSampleBufferCopyPCMDataIntoAudioBufferList(sample, at: 2, frameCount: 3, into: pcm.mutableAudioBufferList)
                == noErr)
        #expect(AudioSignals.planar(pcm) == AudioSignals.planar(original).map { Array($0[2...]) })
        #expect(CMSampleBufferCopyPCMDataIntoAudioBufferList(sample, at: 4, frameCount: 3, into: pcm.mutableAudioBufferList)
                == kCMSampleBufferError_SampleIndexOutOfRange)
        let values = try sample.withAudioBufferList { list, block in
            #expect(block.dataLength == 20)
            return list.map { int16s($0) }
        }
        #expect(values == [[1, 2, 3, 4, 5], [-1, -2, -3, -4, -5]])
    }

    @Test func blockBufferBytesAreReachableAndBoundsChecked() throws {
        let (sample, _) = try sampleBuffer(interleaved: true)
        let block = try #require(CMSampleBufferGetDataBuffer(sample))
        var copied = [Int16](repeating: 0, count: 2)
        #expect(copied.withUnsafeMutableBytes {
            CMBlockBufferCopyDataBytes(block, atOffset: 4, dataLength: 4, destination: $0.baseAddress!)
        } == noErr)
        #expect(copied == [2, -2])
        var scratch = [UInt8](repeating: 0, count: 8)
        #expect(CMBlockBufferCopyDataBytes(block, atOffset: 16, dataLength: 8, destination: &scratch)
                == kCMBlockBufferBadLengthParameterErr)
        var length = 0, total = 0
        var pointer: UnsafeMutablePointer<CChar>?
        #expect(CMBlockBufferGetDataPointer(block, atOffset: 2, lengthAtOffsetOut: &length, totalLengthOut: &total,
                                            dataPointerOut: &pointer) == noErr)
        #expect(length == 18 && total == 20 && pointer != nil)
        #expect(CMBlockBufferGetDataPointer(block, atOffset: 20, lengthAtOffsetOut: nil, totalLengthOut: nil,
                                            dataPointerOut: &pointer) == kCMBlockBufferBadOffsetParameterErr)
        #expect(CMBlockBufferIsRangeContiguous(block, atOffset: 0, length: 0) && !CMBlockBufferIsEmpty(block))
        #expect(try block.dataBytes() == sample.audioData)
    }
}
