import AVFoundation
import Foundation
import SpeechMigration
import Testing

@Suite struct MonoAudioConverterTests {
    /// A stereo buffer at `rate` holding a 440 Hz tone in both channels.
    private func tone(rate: Double, frames: Int) throws -> AVAudioPCMBuffer {
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: rate, channels: 2))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(frames)))
        buffer.frameLength = AVAudioFrameCount(frames)
        for channel in 0..<2 {
            let samples = try #require(buffer.floatChannelData)[channel]
            for index in 0..<frames { samples[index] = Float(0.5 * sin(2 * Double.pi * 440 * Double(index) / rate)) }
        }
        return buffer
    }

    @Test("44.1 kHz stereo buffers become 16 kHz mono with no frames lost across buffers")
    func resamplesAcrossBuffers() throws {
        let converter = MonoAudioConverter()
        var total = 0
        for _ in 0..<10 {
            let output = try converter.convert(try tone(rate: 44_100, frames: 4_410))
            #expect(output.format.sampleRate == 16_000 && output.format.channelCount == 1)
            total += Int(output.frameLength)
        }
        total += Int(try converter.finish().frameLength)
        #expect(abs(total - 16_000) <= 32, "1 s of audio gives \(total) frames")
    }

    @Test("16 kHz mono passes through with its samples")
    func passThrough() throws {
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 1_600))
        buffer.frameLength = 1_600
        for index in 0..<1_600 { try #require(buffer.floatChannelData)[0][index] = Float(index % 100) / 100 }
        let converter = MonoAudioConverter()
        let output = try converter.convert(buffer)
        let rest = try converter.finish()
        #expect(Int(output.frameLength + rest.frameLength) == 1_600)
        if output.frameLength > 10 {
            #expect(abs(try #require(output.floatChannelData)[0][10] - 0.1) < 1e-4)
        }
    }
}
