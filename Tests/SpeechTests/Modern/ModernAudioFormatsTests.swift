import AVFoundation
import Foundation
import Testing
@testable import Speech

/// The format check where audio enters the analyzer: the modules' listed
/// formats decide, `incompatibleAudioFormats` when they share none,
/// `unexpectedAudioFormat` for a buffer outside what they share (§1.4.12).
@Suite struct ModernAudioFormatsTests {
    private func format(_ common: AVAudioCommonFormat, _ rate: Double = 16_000, channels: AVAudioChannelCount = 1,
                        interleaved: Bool = false) throws -> AVAudioFormat {
        try #require(AVAudioFormat(commonFormat: common, sampleRate: rate, channels: channels, interleaved: interleaved))
    }

    private func code(of body: () throws -> Void) -> SFSpeechError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? SFSpeechError)?.code
        }
    }

    @Test func modulesSharingNoFormatFailWithIncompatibleAudioFormats() throws {
        let int16Only = [try format(.pcmFormatInt16)]
        let float48kOnly = [try format(.pcmFormatFloat32, 48_000)]
        let lists = [int16Only, float48kOnly]
        #expect(ModernAudioFormats.bestFormat(for: lists, considering: nil) == nil)
        do {
            try ModernAudioFormats.checkInput(try format(.pcmFormatInt16), moduleFormats: lists)
            Issue.record("expected incompatibleAudioFormats")
        } catch let error as SFSpeechError {
            #expect(error.code == .incompatibleAudioFormats)
            let message = (error as NSError).localizedDescription
            #expect(message.contains("no audio format in common") && message.contains("48000.0 Hz"))
            #expect(message.contains("bestAvailableAudioFormat"))
        }
        // Even a buffer one module takes cannot serve both.
        #expect(code { try ModernAudioFormats.checkInput(try format(.pcmFormatFloat32, 48_000), moduleFormats: lists) }
                == .incompatibleAudioFormats)
    }

    @Test func sharedFormatsAcceptMonoInEitherLayoutAndRejectOthers() throws {
        let lists = [ModernAudioFormats.analyzerFormats, ModernAudioFormats.analyzerFormats.reversed()]
        #expect(code { try ModernAudioFormats.checkInput(try format(.pcmFormatInt16, interleaved: true), moduleFormats: lists) } == nil)
        #expect(code { try ModernAudioFormats.checkInput(try format(.pcmFormatFloat32), moduleFormats: lists) } == nil)
        #expect(code { try ModernAudioFormats.checkInput(try format(.pcmFormatFloat32, 44_100), moduleFormats: lists) }
                == .unexpectedAudioFormat)
        #expect(code { try ModernAudioFormats.checkInput(try format(.pcmFormatFloat32, channels: 2), moduleFormats: lists) }
                == .unexpectedAudioFormat)
        #expect(code { try ModernAudioFormats.checkInput(try format(.pcmFormatFloat64), moduleFormats: lists) }
                == .unexpectedAudioFormat)
        // Only the formats both lists hold are shared, best first.
        let narrowed = [ModernAudioFormats.analyzerFormats, [try format(.pcmFormatFloat32)]]
        #expect(ModernAudioFormats.commonFormats(of: narrowed).map(\.commonFormat) == [.pcmFormatFloat32])
        #expect(code { try ModernAudioFormats.checkInput(try format(.pcmFormatInt16), moduleFormats: narrowed) }
                == .unexpectedAudioFormat)
    }

    /// A module without assets lists nothing: it is left to its asset error,
    /// not reported as a format conflict; with no list at all the analyzer's
    /// own formats apply.
    @Test func modulesWithoutAssetsAreLeftToTheirAssetError() throws {
        let withAssets = ModernAudioFormats.analyzerFormats
        #expect(code { try ModernAudioFormats.checkInput(try format(.pcmFormatInt16), moduleFormats: [withAssets, []]) } == nil)
        #expect(code { try ModernAudioFormats.checkInput(try format(.pcmFormatInt16), moduleFormats: [[], []]) } == nil)
        #expect(code { try ModernAudioFormats.checkInput(try format(.pcmFormatInt16, 8_000), moduleFormats: []) }
                == .unexpectedAudioFormat)
    }
}
