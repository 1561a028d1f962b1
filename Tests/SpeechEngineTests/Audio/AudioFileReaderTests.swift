import Foundation
import Testing
import TestSupport
@testable import SpeechEngine

@Suite("AudioFileReader")
struct AudioFileReaderTests {
    /// Every block of `url`, in order.
    private static func blocks(of url: URL) throws -> [[Float]] {
        let reader = try AudioFileReader(contentsOf: url)
        var blocks: [[Float]] = []
        while let block = try reader.nextBlock() { blocks.append(block) }
        return blocks
    }

    @Test("A 44.1 kHz stereo file comes in bounded blocks whose concatenation is decode's result, bit for bit")
    func blocksMakeTheDecodedFile() throws {
        let directory = try Fixtures.temporaryDirectory("audio-reader")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stereo = directory.appendingPathComponent("jfk-44k-stereo.wav")
        try AudioTestFiles.sox([AudioTestFiles.jfk.path, "-r", "44100", "-c", "2", stereo.path])
        let blocks = try Self.blocks(of: stereo)
        // 11 s at 44.1 kHz is 7.4 blocks of 65,536 frames: the resampler carries its state across them.
        #expect(blocks.count >= 8, "\(blocks.count) blocks")
        // A block is at most one read's worth of 16 kHz audio (65,536 × 16/44.1 ≈ 23,800) plus the filter's tail.
        #expect(blocks.allSatisfy { $0.count <= 26_000 }, "\(blocks.map(\.count))")
        #expect(Array(blocks.joined()) == (try AudioDecoder.decode(contentsOf: stereo)))
        let reader = try AudioFileReader(contentsOf: stereo)
        let expected = try #require(reader.expectedSampleCount)
        #expect(abs(expected - 176_000) <= 2)
    }

    @Test("After the last block the reader keeps answering nil")
    func endIsSticky() throws {
        let reader = try AudioFileReader(contentsOf: AudioTestFiles.jfk)
        var total = 0
        while let block = try reader.nextBlock() { total += block.count }
        #expect(total == 176_000)
        #expect(try reader.nextBlock() == nil)
    }

    @Test("A truncated FLAC delivers its real audio first, then throws unreadableAudio naming the file at the end")
    func truncatedFileThrowsAtTheEnd() throws {
        let directory = try Fixtures.temporaryDirectory("audio-reader")
        defer { try? FileManager.default.removeItem(at: directory) }
        let long = directory.appendingPathComponent("jfk-x4.wav")
        let flac = directory.appendingPathComponent("jfk-x4.flac")
        let cut = directory.appendingPathComponent("cut.flac")
        let jfk = AudioTestFiles.jfk.path
        try AudioTestFiles.sox([jfk, jfk, jfk, jfk, long.path])
        try AudioTestFiles.sox([long.path, flac.path])
        let size = try Data(contentsOf: flac).count
        try AudioTestFiles.truncate(flac, to: size / 2, as: cut)
        let reader = try AudioFileReader(contentsOf: cut)
        var delivered = 0
        let error = try #require(throws: EngineError.self) {
            while let block = try reader.nextBlock() { delivered += block.count }
        }
        #expect(error.code == .unreadableAudio)
        #expect(error.message.contains("cut.flac") && error.message.contains("truncated"), "\(error.message)")
        // Roughly the half of 44 s that is there came out before the error.
        #expect(delivered > 16_000 * 15, "\(delivered) samples before the error")
        #expect(try reader.nextBlock() == nil)
    }

    @Test("Opening a missing file throws as decode does")
    func missingFile() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/speechcompat/clip.wav")
        let error = try #require(throws: EngineError.self) { try AudioFileReader(contentsOf: missing) }
        #expect(error.code == .unreadableAudio)
        #expect(error.message == "No audio file at '\(missing.path)'. Check the path.")
    }
}
