import AVFAudio
import Testing

/// Code that writes `import AVFAudio` (newer Apple samples) sees the same types.
@Suite struct AVFAudioModuleTests {
    @Test func audioTypesAreReachableThroughAVFAudio() throws {
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 160))
        buffer.frameLength = 160
        #expect(buffer.format.sampleRate == 16_000)
        #expect(CMTime(value: 160, timescale: 16_000).seconds == 0.01)
    }
}
