import Foundation
import SpeechEngine
@testable import SpeechService
import TestSupport
import Testing

/// Live audio bytes to 16 kHz mono: pieces cut anywhere, the three
/// encodings, channels and rates, and WAV streams written by sox checked
/// against libsndfile's reading of the same file.
@Suite struct PCMStreamDecoderTests {
    /// Feeds `bytes` in pieces of `piece` bytes and returns all samples.
    static func decodeInPieces(_ decoder: inout PCMStreamDecoder, _ bytes: [UInt8], piece: Int) throws -> [Float] {
        var samples: [Float] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + piece)
            samples += try Array(bytes[start..<end]).withUnsafeBytes { try decoder.decode($0) }
            start = end
        }
        return samples + decoder.finish()
    }

    static func s16(_ values: [Int16]) -> [UInt8] {
        values.flatMap { value in withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    }

    @Test(arguments: [1, 3, 7, 1000])
    func s16FramesCutBetweenPiecesComeOutWhole(piece: Int) throws {
        var decoder = try PCMStreamDecoder(encoding: .s16le, sampleRate: 16_000, channelCount: 1)
        let values: [Int16] = [0, 16_384, -16_384, 32_767, -32_768, 1]
        let samples = try Self.decodeInPieces(&decoder, Self.s16(values), piece: piece)
        #expect(samples == values.map { Float($0) / 32_768 })
        #expect(decoder.decodedSeconds == 6.0 / 16_000)
    }

    @Test func f32StereoIsDownmixed() throws {
        var decoder = try PCMStreamDecoder(encoding: .f32le, sampleRate: 16_000, channelCount: 2)
        let frames: [Float] = [0.5, -0.5, 0.25, 0.75, 1, 1]
        let bytes = frames.flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
        let samples = try Self.decodeInPieces(&decoder, bytes, piece: 5)
        #expect(samples == Downmix.mono(interleaved: frames, channelCount: 2))
        #expect(samples.count == 3)
    }

    @Test func otherRatesAreResampledTo16kHz() throws {
        var decoder = try PCMStreamDecoder(encoding: .s16le, sampleRate: 48_000, channelCount: 1)
        let tone = (0..<48_000).map { Int16(8_000 * sin(Double($0) * 2 * .pi * 440 / 48_000)) }
        let samples = try Self.decodeInPieces(&decoder, Self.s16(tone), piece: 4_001)
        #expect(abs(samples.count - 16_000) <= 2, "\(samples.count)")
    }

    @Test(arguments: [("16000", "1", "16"), ("44100", "2", "16"), ("22050", "1", "32")])
    func aWAVStreamDecodesAsLibsndfileReadsTheFile(rate: String, channels: String, bits: String) throws {
        let folder = try Fixtures.temporaryDirectory("pcm-stream-wav")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("tone.wav")
        var arguments = ["-n", "-r", rate, "-c", channels, "-b", bits]
        if bits == "32" { arguments += ["-e", "floating-point"] }
        try SyntheticAudio.run("/usr/bin/sox", arguments + [url.path, "synth", "1.5", "sine", "300-900", "gain", "-6"])
        var decoder = try PCMStreamDecoder(encoding: .wav, sampleRate: 16_000, channelCount: 1)
        let streamed = try Self.decodeInPieces(&decoder, Array(try Data(contentsOf: url)), piece: 333)
        let read = try AudioDecoder.decode(contentsOf: url)
        #expect(decoder.sampleRate == Int(rate))
        #expect(decoder.channelCount == Int(channels))
        #expect(abs(streamed.count - read.count) <= 2, "\(streamed.count) vs \(read.count)")
        let shared = min(streamed.count, read.count)
        let largestDifference = zip(streamed.prefix(shared), read.prefix(shared)).map { abs($0 - $1) }.max() ?? 1
        #expect(largestDifference < 0.01, "\(largestDifference)")
    }

    @Test func aStreamThatIsNotWAVIsRefusedWithItsCode() throws {
        var decoder = try PCMStreamDecoder(encoding: .wav, sampleRate: 16_000, channelCount: 1)
        let bytes = Array("this is not a wav header at all".utf8)
        #expect { try bytes.withUnsafeBytes { try decoder.decode($0) } } throws: { error in
            (error as? ServiceError)?.code == "invalid_audio" && "\(error)".contains("encoding=s16le")
        }
    }

    @Test func eightBitWAVIsRefusedNamingWhatToSend() throws {
        let folder = try Fixtures.temporaryDirectory("pcm-stream-wav8")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("u8.wav")
        try SyntheticAudio.run("/usr/bin/sox", ["-n", "-r", "8000", "-c", "1", "-b", "8", url.path, "trim", "0", "0.1"])
        var decoder = try PCMStreamDecoder(encoding: .wav, sampleRate: 16_000, channelCount: 1)
        let bytes = Array(try Data(contentsOf: url))
        #expect { try bytes.withUnsafeBytes { try decoder.decode($0) } } throws: { error in
            (error as? ServiceError)?.code == "invalid_audio" && "\(error)".contains("16-bit PCM")
        }
    }

    @Test(arguments: [(4_000, 1), (16_000, 0), (16_000, 9), (500_000, 1)])
    func ratesAndChannelsOutOfRangeAreRefused(rate: Int, channels: Int) {
        #expect(throws: ServiceError.self) {
            _ = try PCMStreamDecoder(encoding: .s16le, sampleRate: rate, channelCount: channels)
        }
    }
}
