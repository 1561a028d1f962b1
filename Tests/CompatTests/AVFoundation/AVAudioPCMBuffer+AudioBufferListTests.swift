import AVFoundation
import Testing

/// AVAudioPCMBuffer's Core Audio view: one buffer per plane whose
/// `mDataByteSize` and `frameLength` follow each other.
@Suite struct AVAudioPCMBufferAudioBufferListTests {
    @Test(arguments: [true, false])
    func buffersPointAtTheChannelDataAndTrackFrameLength(interleaved: Bool) throws {
        let format = try #require(AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 16_000, channels: 2,
                                                interleaved: interleaved))
        let pcm = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 100))
        let list = UnsafeMutableAudioBufferListPointer(pcm.mutableAudioBufferList)
        #expect(list.count == (interleaved ? 1 : 2))
        #expect(list[0].mData == UnsafeMutableRawPointer(pcm.floatChannelData![0]))
        if !interleaved { #expect(list[1].mData == UnsafeMutableRawPointer(pcm.floatChannelData![1])) }
        #expect(list.allSatisfy { $0.mDataByteSize == 0 && $0.mNumberChannels == (interleaved ? 2 : 1) })
        pcm.frameLength = 10
        #expect(list.allSatisfy { $0.mDataByteSize == (interleaved ? 80 : 40) })
        // … and vice versa, as Core Audio code relies on.
        for index in list.indices { list[index].mDataByteSize = interleaved ? 24 : 12 }
        #expect(pcm.frameLength == 3)
        #expect(pcm.audioBufferList.pointee.mNumberBuffers == UInt32(list.count))
    }
}
