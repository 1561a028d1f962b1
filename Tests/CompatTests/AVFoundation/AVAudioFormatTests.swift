import AVFoundation
import Testing

/// AVAudioFormat creation, settings and content equality (API.md §2.3).
@Suite struct AVAudioFormatTests {
    @Test func commonFormatInitValidatesArguments() throws {
        #expect(AVAudioFormat(commonFormat: .otherFormat, sampleRate: 16_000, channels: 1, interleaved: false) == nil)
        #expect(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 0, interleaved: true) == nil)
        #expect(AVAudioFormat(standardFormatWithSampleRate: 0, channels: 1) == nil)
        let format = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 2, interleaved: true))
        #expect(format.commonFormat == .pcmFormatInt16 && format.isInterleaved && !format.isStandard)
        #expect(format.channelCount == 2 && format.sampleRate == 16_000 && format.channelLayout == nil)
    }

    @Test func standardFormatIsFloatDeinterleaved() throws {
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1))
        #expect(format.isStandard && format.commonFormat == .pcmFormatFloat32 && !format.isInterleaved)
        let layout = try #require(AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Stereo))
        let stereo = AVAudioFormat(standardFormatWithSampleRate: 44_100, channelLayout: layout)
        #expect(stereo.channelCount == 2 && stereo.isStandard)
    }

    @Test func equalityComparesContent() throws {
        let a = try #require(AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1))
        let b = try #require(AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 16_000, channels: 1, interleaved: false))
        let c = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1, interleaved: false))
        let d = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1))
        #expect(a == b && a.hash == b.hash)
        #expect(a != c && a != d)
        #expect(Set([a, b, c]).count == 2)
    }

    @Test func settingsRoundTrip() throws {
        let format = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 22_050, channels: 2, interleaved: true))
        let settings = format.settings
        #expect(settings[AVFormatIDKey] as? AudioFormatID == kAudioFormatLinearPCM)
        #expect(settings[AVSampleRateKey] as? Double == 22_050)
        #expect(settings[AVLinearPCMBitDepthKey] as? Int == 16)
        #expect(settings[AVLinearPCMIsFloatKey] as? Bool == false)
        let rebuilt = try #require(AVAudioFormat(settings: settings))
        #expect(rebuilt == format)
    }

    @Test func settingsInitAcceptsAppleStyleDictionaries() throws {
        let format = try #require(AVAudioFormat(settings: [
            AVFormatIDKey: Int(kAudioFormatLinearPCM), AVSampleRateKey: 16_000, AVNumberOfChannelsKey: 1,
            AVLinearPCMBitDepthKey: NSNumber(value: 32), AVLinearPCMIsFloatKey: true,
            AVLinearPCMIsNonInterleaved: true,
        ]))
        #expect(format.isStandard && format.sampleRate == 16_000)
        #expect(AVAudioFormat(settings: [AVSampleRateKey: 16_000]) == nil)
        #expect(AVAudioFormat(settings: [AVSampleRateKey: 16_000, AVNumberOfChannelsKey: 1,
                                         AVLinearPCMBitDepthKey: 12]) == nil)
        let flac = try #require(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatFLAC, AVSampleRateKey: 44_100.0,
                                                         AVNumberOfChannelsKey: 2]))
        #expect(flac.commonFormat == .otherFormat && AVAudioPCMBuffer(pcmFormat: flac, frameCapacity: 10) == nil)
    }
}
