import AVFoundation
import Foundation
import Testing

/// AVAudioFormat's `NSSecureCoding` (through Linux Foundation's keyed
/// archiver) and its settable `magicCookie` (API.md §2.3).
@Suite struct AVAudioFormatCodingTests {
    /// Archives `format` securely and reads it back.
    private func roundTrip(_ format: AVAudioFormat) throws -> AVAudioFormat {
        let data = try NSKeyedArchiver.archivedData(withRootObject: format, requiringSecureCoding: true)
        return try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: AVAudioFormat.self, from: data))
    }

    @Test func pcmFormatsRoundTripThroughSecureCoding() throws {
        #expect(AVAudioFormat.supportsSecureCoding)
        let formats = try [
            #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1, interleaved: true)),
            #require(AVAudioFormat(commonFormat: .pcmFormatFloat64, sampleRate: 44_100, channels: 2, interleaved: false)),
            #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)),
        ]
        for format in formats {
            let decoded = try roundTrip(format)
            #expect(decoded == format, "\(decoded) != \(format)")
            #expect(decoded.commonFormat == format.commonFormat && decoded.isInterleaved == format.isInterleaved)
            #expect(decoded.streamDescription.pointee.mBytesPerFrame == format.streamDescription.pointee.mBytesPerFrame)
            #expect(decoded.settings.count == format.settings.count)
        }
    }

    @Test func layoutAndNonPCMFormatsRoundTrip() throws {
        let layout = try #require(AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_DiscreteInOrder | 4))
        let quad = AVAudioFormat(standardFormatWithSampleRate: 48_000, channelLayout: layout)
        let decodedQuad = try roundTrip(quad)
        #expect(decodedQuad.channelCount == 4 && decodedQuad.channelLayout?.layoutTag == layout.layoutTag)

        let flac = try #require(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatFLAC, AVSampleRateKey: 44_100.0,
                                                         AVNumberOfChannelsKey: 2]))
        let decodedFLAC = try roundTrip(flac)
        #expect(decodedFLAC.commonFormat == .otherFormat && decodedFLAC == flac)
    }

    @Test func magicCookieIsSettableAndArchived() throws {
        let format = try #require(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatFLAC, AVSampleRateKey: 16_000.0,
                                                           AVNumberOfChannelsKey: 1]))
        #expect(format.magicCookie == nil)
        let cookie = Data([0x66, 0x4C, 0x61, 0x43, 0x00, 0x22])
        format.magicCookie = cookie
        #expect(format.magicCookie == cookie)
        #expect(try roundTrip(format).magicCookie == cookie)
        format.magicCookie = nil
        #expect(try roundTrip(format).magicCookie == nil)
    }

    /// An archive with a field out of range fails to decode instead of making
    /// a format that traps later.
    @Test func corruptArchiveDecodesToNil() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.encode(Int64(kAudioFormatLinearPCM), forKey: "formatID")
        archiver.encode(-1.0, forKey: "sampleRate")
        archiver.encode(Int64(1), forKey: "channelCount")
        archiver.finishEncoding()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        #expect(AVAudioFormat(coder: unarchiver) == nil)
    }
}
