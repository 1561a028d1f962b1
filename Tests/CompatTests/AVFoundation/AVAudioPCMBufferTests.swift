@testable import AVFoundation
import Testing

/// AVAudioPCMBuffer layouts and channel-data accessors (API.md §2.4).
@Suite struct AVAudioPCMBufferTests {
    @Test func deinterleavedFloatBuffer() throws {
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 2))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 8))
        #expect(buffer.frameLength == 0 && buffer.frameCapacity == 8 && buffer.stride == 1)
        #expect(buffer.int16ChannelData == nil && buffer.int32ChannelData == nil)
        let data = try #require(buffer.floatChannelData)
        for frame in 0..<8 {
            data[0][frame] = Float(frame)
            data[1][frame] = -Float(frame)
        }
        buffer.frameLength = 8
        #expect(buffer.planarFloats() == [(0..<8).map { Float($0) }, (0..<8).map { -Float($0) }])
    }

    @Test func interleavedInt16BufferUsesStride() throws {
        let format = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 8_000, channels: 2, interleaved: true))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 4))
        #expect(buffer.stride == 2 && buffer.floatChannelData == nil)
        let data = try #require(buffer.int16ChannelData)
        for frame in 0..<4 {
            data[0][frame * buffer.stride + 0] = Int16(100 + frame)
            data[0][frame * buffer.stride + 1] = Int16(-100 - frame)
        }
        // Channel 1's pointer starts at offset 1 of the same block.
        #expect(data[1][0] == -100 && data[1][2] == -101)
        buffer.frameLength = 4
        let planar = buffer.planarFloats()
        #expect(planar[0][3] == Float(103) / 32_768 && planar[1][1] == Float(-101) / 32_768)
    }

    @Test func floatToIntegerConversionRoundsAndClips() throws {
        let format = try #require(AVAudioFormat(commonFormat: .pcmFormatInt32, sampleRate: 8_000, channels: 1, interleaved: false))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 4))
        buffer.writePlanarFloats([[0.5, -1, 1.5, -0.25]], startFrame: 0)
        let data = try #require(buffer.int32ChannelData)
        #expect(data[0][0] == 1 << 30 && data[0][1] == .min && data[0][2] == .max && data[0][3] == -(1 << 29))
    }

    @Test func copyDuplicatesSamples() throws {
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 3))
        buffer.floatChannelData?[0][1] = 0.25
        buffer.frameLength = 2
        let copy = try #require(buffer.copy() as? AVAudioPCMBuffer)
        buffer.floatChannelData?[0][1] = 0
        #expect(copy.frameLength == 2 && copy.floatChannelData?[0][1] == 0.25 && copy.format == format)
    }

    @Test func audioTimeConversions() {
        #expect(AVAudioTime.hostTime(forSeconds: 1.5) == 1_500_000_000)
        #expect(AVAudioTime.seconds(forHostTime: 250_000_000) == 0.25)
        let anchor = AVAudioTime(hostTime: 1_000_000_000, sampleTime: 0, atRate: 16_000)
        let later = AVAudioTime(sampleTime: 8_000, atRate: 16_000).extrapolateTime(fromAnchor: anchor)
        #expect(later?.hostTime == 1_500_000_000 && later?.isHostTimeValid == true)
        #expect(AVAudioTime(hostTime: 5).isSampleTimeValid == false)
    }
}
