import Foundation
import SpeechEngine
import Testing
@testable import Speech

@Suite struct BufferConversionTests {
    /// A buffer of a sine in `format`, the same in every channel.
    static func sine(_ format: AVAudioFormat, frequency: Double, seconds: Double) -> AVAudioPCMBuffer {
        let frames = Int(seconds * format.sampleRate)
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(frames))!
        buffer.frameLength = AVAudioFrameCount(frames)
        let channels = Int(format.channelCount)
        let interleaved = format.isInterleaved && channels > 1
        for channel in 0..<channels {
            for frame in 0..<frames {
                let value = 0.5 * sin(2 * .pi * frequency * Double(frame) / format.sampleRate)
                let index = interleaved ? frame * channels + channel : frame
                let slot = interleaved ? 0 : channel
                switch format.commonFormat {
                case .pcmFormatFloat32: buffer.floatChannelData![slot][index] = Float(value)
                case .pcmFormatInt16: buffer.int16ChannelData![slot][index] = Int16(value * 32_767)
                case .pcmFormatInt32: buffer.int32ChannelData![slot][index] = Int32(value * 2_147_483_647)
                default: break
                }
            }
        }
        return buffer
    }

    static let formats: [(AVAudioCommonFormat, Double, AVAudioChannelCount, Bool)] = [
        (.pcmFormatFloat32, 16_000, 1, false), (.pcmFormatFloat32, 48_000, 2, false),
        (.pcmFormatInt16, 44_100, 2, true), (.pcmFormatInt32, 22_050, 1, false), (.pcmFormatInt16, 8_000, 1, true),
    ]

    @Test(arguments: 0..<formats.count)
    func anyPCMFormatBecomes16kMonoAcrossChunks(index: Int) throws {
        let (common, rate, channels, interleaved) = Self.formats[index]
        let format = try #require(AVAudioFormat(commonFormat: common, sampleRate: rate, channels: channels,
                                                interleaved: interleaved))
        let conversion = BufferConversion()
        var output: [Float] = []
        for _ in 0..<10 {  // ten 100 ms chunks
            output += try conversion.convert(Self.sine(format, frequency: 440, seconds: 0.1))
        }
        output += conversion.finish()
        #expect(abs(output.count - 16_000) <= 2)
        // Amplitude survives downmix and resampling; no clicks at chunk seams.
        let middle = output[800..<15_200]
        #expect(abs((middle.max() ?? 0) - 0.5) < 0.02)
        let largestStep = zip(middle, middle.dropFirst()).map { abs($1 - $0) }.max() ?? 0
        #expect(largestStep < 2 * .pi * 440 / 16_000 * 0.5 * 1.1)
    }

    @Test func float64BuffersAreRejectedWithATypedError() throws {
        let format = try #require(AVAudioFormat(commonFormat: .pcmFormatFloat64, sampleRate: 16_000, channels: 1,
                                                interleaved: false))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 160))
        buffer.frameLength = 160
        #expect(throws: SpeechEngine.EngineError.self) { try BufferConversion().convert(buffer) }
    }
}
