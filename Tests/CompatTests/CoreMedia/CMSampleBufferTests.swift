import AVFoundation
import CoreMedia
import Testing

/// CMSampleBuffer's audio subset and the AVAudioPCMBuffer bridge that
/// `appendAudioSampleBuffer(_:)` relies on.
@Suite struct CMSampleBufferTests {
    @Test(arguments: [(AVAudioCommonFormat.pcmFormatInt16, true), (.pcmFormatFloat32, false), (.pcmFormatInt32, false)])
    func pcmRoundTripKeepsSamplesFormatAndTime(format common: (AVAudioCommonFormat, Bool)) throws {
        let format = try #require(AVAudioFormat(commonFormat: common.0, sampleRate: 16_000, channels: 2, interleaved: common.1))
        let planar = [AudioSignals.sine(frequency: 300, sampleRate: 16_000, count: 800),
                      AudioSignals.sine(frequency: 700, sampleRate: 16_000, count: 800, amplitude: 0.2)]
        let pcm = AudioSignals.buffer(format, planar: planar)
        let start = CMTime(value: 48_000, timescale: 16_000)
        let sample = CMSampleBuffer(pcmBuffer: pcm, presentationTimeStamp: start)
        #expect(CMSampleBufferGetNumSamples(sample) == 800)
        #expect(CMSampleBufferGetPresentationTimeStamp(sample) == CMTime(value: 3, timescale: 1))
        #expect(CMSampleBufferGetDuration(sample) == CMTime(value: 1, timescale: 20))
        #expect(sample.totalSampleSize == 800 * 2 * Int(format.streamDescription.pointee.mBitsPerChannel / 8))
        let description = try #require(CMSampleBufferGetFormatDescription(sample))
        let asbd = try #require(CMAudioFormatDescriptionGetStreamBasicDescription(description)).pointee
        #expect(asbd.mFormatID == kAudioFormatLinearPCM && asbd.mSampleRate == 16_000 && asbd.mChannelsPerFrame == 2)
        #expect((asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0) == !common.1)
        #expect(AVAudioFormat(cmAudioFormatDescription: description) == format)
        let back = try #require(sample.makeAudioPCMBuffer())
        #expect(back.format == format && back.frameLength == 800)
        #expect(AudioSignals.planar(back) == AudioSignals.planar(pcm))
    }

    @Test func nonPCMSampleBuffersGiveNoPCMBuffer() {
        var description = AudioStreamBasicDescription()
        description.mFormatID = kAudioFormatMPEG4AAC
        description.mSampleRate = 44_100
        description.mChannelsPerFrame = 2
        let sample = CMSampleBuffer(audioData: Data(count: 10), streamDescription: description, sampleCount: 1_024,
                                    presentationTimeStamp: .zero)
        #expect(sample.makeAudioPCMBuffer() == nil)
        #expect(CMFormatDescriptionGetMediaType(sample.formatDescription!) == kCMMediaType_Audio)
    }

    @Test func streamDescriptionsRoundTrip() throws {
        let format = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 8_000, channels: 1, interleaved: true))
        let asbd = format.streamDescription.pointee
        #expect(asbd.mBytesPerFrame == 2 && asbd.mBitsPerChannel == 16 && asbd.mFramesPerPacket == 1)
        #expect(asbd.mFormatFlags & kAudioFormatFlagIsSignedInteger != 0)
        #expect(AVAudioFormat(streamDescription: format.streamDescription) == format)
        var bigEndian = asbd
        bigEndian.mFormatFlags |= kAudioFormatFlagIsBigEndian
        #expect(AVAudioFormat(streamDescription: &bigEndian) == nil)
    }
}
