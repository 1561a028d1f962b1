import CoreMedia
import Foundation
import Testing

/// AudioBufferList, AudioBuffer and UnsafeMutableAudioBufferListPointer: the C
/// layout and the collection view over lists of more than one buffer.
@Suite struct AudioBufferListTests {
    @Test func layoutMatchesCoreAudio() {
        #expect(MemoryLayout<AudioBuffer>.size == 16)
        #expect(MemoryLayout<AudioBufferList>.size == 24)
        #expect(AudioBufferList.sizeInBytes(maximumBuffers: 1) == 24)
        #expect(AudioBufferList.sizeInBytes(maximumBuffers: 3) == 56)
        #expect(noErr == 0)
    }

    @Test func allocatedListsHoldEveryBufferWritesGoThrough() {
        let list = AudioBufferList.allocate(maximumBuffers: 3)
        defer { free(list.unsafeMutablePointer) }
        #expect(list.count == 3 && list.unsafePointer.pointee.mNumberBuffers == 3)
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: 12)
        defer { storage.deallocate() }
        for index in 0..<3 {
            list[index] = AudioBuffer(UnsafeMutableBufferPointer(start: storage + index * 4, count: 4), numberOfChannels: 1)
        }
        // The third buffer lies past the struct's single declared element.
        #expect(list[2].mData == UnsafeMutableRawPointer(storage + 8))
        #expect(list.map(\.mDataByteSize) == [16, 16, 16])
        list[1].mDataByteSize = 8
        #expect(UnsafeMutableAudioBufferListPointer(list.unsafeMutablePointer)[1].mDataByteSize == 8)
        list.count = 2
        #expect(Array(list).count == 2)
        #expect(UnsafeMutableAudioBufferListPointer(nil as UnsafeMutablePointer<AudioBufferList>?) == nil)
    }
}
