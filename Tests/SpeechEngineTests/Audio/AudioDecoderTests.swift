import CSndFile
import Foundation
import Testing
import TestSupport
@testable import SpeechEngine

@Suite("AudioDecoder")
struct AudioDecoderTests {
    /// The JFK clip decoded from its original 16 kHz WAV.
    private static func original() throws -> [Float] {
        try AudioDecoder.decode(contentsOf: AudioTestFiles.jfk)
    }

    /// Checks `decoded` is the clip: about the same length, aligned, and highly correlated.
    private func expectSameClip(_ decoded: [Float], _ original: [Float], minimumCorrelation: Double,
                                lengthTolerance: Int = 160, _ label: String) {
        #expect(abs(decoded.count - original.count) <= lengthTolerance, "\(label): \(decoded.count) samples")
        #expect(decoded.allSatisfy { $0 >= -1 && $0 <= 1 }, "\(label): samples outside [-1, 1]")
        // One second of speech from t = 1 s, searched around its place.
        let probe = Array(original[16_000..<32_000])
        let match = AudioTestFiles.bestCorrelation(probe, decoded, lags: 15_900...16_100)
        #expect(abs(match.lag - 16_000) <= 40, "\(label): offset by \(match.lag - 16_000) samples")
        #expect(match.value >= minimumCorrelation, "\(label): correlation \(match.value)")
    }

    @Test("16-bit WAV decodes to int16 / 32768 at 16 kHz")
    func wav() throws {
        let samples = try Self.original()
        #expect(samples.count == 176_000)
        let raw = try Data(contentsOf: AudioTestFiles.jfk)
        // The canonical 44-byte header, then little-endian int16.
        for index in [0, 1_000, 50_000, 175_999] {
            let low = UInt16(raw[44 + 2 * index]), high = UInt16(raw[45 + 2 * index])
            let value = Float(Int16(bitPattern: low | high << 8)) / 32_768
            #expect(samples[index] == value)
        }
        #expect(samples.contains { abs($0) > 0.1 })
    }

    @Test("FLAC (sox) is lossless; Ogg Vorbis (sox), Ogg Opus and MP3 (libsndfile) decode to the same clip")
    func compressedFormats() throws {
        let original = try Self.original()
        let directory = try Fixtures.temporaryDirectory("audio-decoder")
        defer { try? FileManager.default.removeItem(at: directory) }
        let flac = directory.appendingPathComponent("jfk.flac")
        let vorbis = directory.appendingPathComponent("jfk.ogg")
        let opus = directory.appendingPathComponent("jfk.opus")
        let mp3 = directory.appendingPathComponent("jfk.mp3")
        try AudioTestFiles.sox([AudioTestFiles.jfk.path, flac.path])
        try AudioTestFiles.sox([AudioTestFiles.jfk.path, vorbis.path])
        try AudioTestFiles.write(original, sampleRate: 16_000, channels: 1,
                                 format: Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS), to: opus)
        try AudioTestFiles.write(original, sampleRate: 16_000, channels: 1,
                                 format: Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III), to: mp3)

        let lossless = try AudioDecoder.decode(contentsOf: flac)
        #expect(lossless == original)
        expectSameClip(try AudioDecoder.decode(contentsOf: vorbis), original, minimumCorrelation: 0.98, "vorbis")
        expectSameClip(try AudioDecoder.decode(contentsOf: opus), original, minimumCorrelation: 0.98, "opus")
        // LAME pads; libsndfile's mpg123 trims it when the file carries a LAME header.
        expectSameClip(try AudioDecoder.decode(contentsOf: mp3), original, minimumCorrelation: 0.98,
                       lengthTolerance: 2_400, "mp3")
    }

    @Test("Stereo 44.1 kHz (sox) comes back as 16 kHz mono matching the original")
    func stereo44k() throws {
        let original = try Self.original()
        let directory = try Fixtures.temporaryDirectory("audio-decoder")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stereo = directory.appendingPathComponent("jfk-44k-stereo.wav")
        try AudioTestFiles.sox([AudioTestFiles.jfk.path, "-r", "44100", "-c", "2", stereo.path])
        expectSameClip(try AudioDecoder.decode(contentsOf: stereo), original, minimumCorrelation: 0.999,
                       lengthTolerance: 2, "stereo 44.1 kHz")
    }

    @Test("48 kHz 24-bit and 8 kHz 8-bit mu-law WAVs (sox) come back at 16 kHz")
    func otherRatesAndEncodings() throws {
        let original = try Self.original()
        let directory = try Fixtures.temporaryDirectory("audio-decoder")
        defer { try? FileManager.default.removeItem(at: directory) }
        let high = directory.appendingPathComponent("jfk-48k-24bit.wav")
        let low = directory.appendingPathComponent("jfk-8k-ulaw.wav")
        try AudioTestFiles.sox([AudioTestFiles.jfk.path, "-r", "48000", "-b", "24", high.path])
        try AudioTestFiles.sox([AudioTestFiles.jfk.path, "-r", "8000", "-e", "mu-law", low.path])
        expectSameClip(try AudioDecoder.decode(contentsOf: high), original, minimumCorrelation: 0.999,
                       lengthTolerance: 2, "48 kHz 24-bit")
        // 8 kHz keeps only the band below 4 kHz, and mu-law adds noise.
        expectSameClip(try AudioDecoder.decode(contentsOf: low), original, minimumCorrelation: 0.9,
                       lengthTolerance: 2, "8 kHz mu-law")
    }

    @Test("Channels are averaged: a tone on the left only comes back at half amplitude")
    func channelsAveraged() throws {
        let directory = try Fixtures.temporaryDirectory("audio-decoder")
        defer { try? FileManager.default.removeItem(at: directory) }
        let tone = AudioTestFiles.sine(hz: 440, seconds: 1, sampleRate: 48_000, amplitude: 0.8)
        var interleaved = [Float](repeating: 0, count: tone.count * 2)
        for (index, value) in tone.enumerated() { interleaved[2 * index] = value }
        let url = directory.appendingPathComponent("left.wav")
        try AudioTestFiles.write(interleaved, sampleRate: 48_000, channels: 2,
                                 format: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT), to: url)
        let mono = try AudioDecoder.decode(contentsOf: url)
        #expect(abs(mono.count - 16_000) <= 1)
        let peak = mono[1_000..<15_000].map { abs($0) }.max() ?? 0
        #expect(abs(peak - 0.4) < 0.01, "peak \(peak)")
    }

    @Test("A missing file or a directory throws unreadableAudio naming the path")
    func missingFile() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/speechcompat/clip.wav")
        let error = try #require(throws: EngineError.self) { try AudioDecoder.decode(contentsOf: missing) }
        #expect(error.code == .unreadableAudio)
        #expect(error.message.contains(missing.path))
        let directory = try Fixtures.temporaryDirectory("audio-decoder")
        defer { try? FileManager.default.removeItem(at: directory) }
        let folderError = try #require(throws: EngineError.self) { try AudioDecoder.decode(contentsOf: directory) }
        #expect(folderError.code == .unreadableAudio)
    }

    @Test("Garbage bytes throw unsupportedAudioFormat naming the file")
    func garbage() throws {
        let directory = try Fixtures.temporaryDirectory("audio-decoder")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("noise.wav")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: url)
        let error = try #require(throws: EngineError.self) { try AudioDecoder.decode(contentsOf: url) }
        #expect(error.code == .unsupportedAudioFormat)
        #expect(error.message.contains("noise.wav"))
        let text = directory.appendingPathComponent("notes.mp3")
        try Data("not audio at all\n".utf8).write(to: text)
        #expect(throws: EngineError.self) { try AudioDecoder.decode(contentsOf: text) }
    }

    @Test("A zero-byte file and a WAV with no frames are unreadableAudio, not an empty success")
    func emptyFiles() throws {
        let directory = try Fixtures.temporaryDirectory("audio-decoder")
        defer { try? FileManager.default.removeItem(at: directory) }
        let zeroBytes = directory.appendingPathComponent("empty.wav")
        try Data().write(to: zeroBytes)
        let empty = try #require(throws: EngineError.self) { try AudioDecoder.decode(contentsOf: zeroBytes) }
        #expect(empty.code == .unreadableAudio)
        #expect(empty.message == "'\(zeroBytes.path)' is empty (0 bytes): it holds no audio. Re-export or re-record it.")
        let noFrames = directory.appendingPathComponent("header-only.wav")
        try AudioTestFiles.write([], sampleRate: 44_100, channels: 2,
                                 format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), to: noFrames)
        let headerOnly = try #require(throws: EngineError.self) { try AudioDecoder.decode(contentsOf: noFrames) }
        #expect(headerOnly.code == .unreadableAudio)
        #expect(headerOnly.message.contains("holds no audio"))
    }

    @Test("Truncated WAV, FLAC, Ogg and MP3 files throw unreadableAudio")
    func truncatedFiles() throws {
        let original = try Self.original()
        let directory = try Fixtures.temporaryDirectory("audio-decoder")
        defer { try? FileManager.default.removeItem(at: directory) }
        let flac = directory.appendingPathComponent("jfk.flac")
        let vorbis = directory.appendingPathComponent("jfk.ogg")
        let mp3 = directory.appendingPathComponent("jfk.mp3")
        try AudioTestFiles.sox([AudioTestFiles.jfk.path, flac.path])
        try AudioTestFiles.sox([AudioTestFiles.jfk.path, vorbis.path])
        try AudioTestFiles.write(original, sampleRate: 16_000, channels: 1,
                                 format: Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III), to: mp3)
        for source in [AudioTestFiles.jfk, flac, vorbis, mp3] {
            let size = try Data(contentsOf: source).count
            for fraction in [0.5, 0.95] {
                let cut = directory.appendingPathComponent("cut-\(fraction)-" + source.lastPathComponent)
                try AudioTestFiles.truncate(source, to: Int(Double(size) * fraction), as: cut)
                let error = try #require(throws: EngineError.self, "\(cut.lastPathComponent)") {
                    try AudioDecoder.decode(contentsOf: cut)
                }
                #expect(error.code == .unreadableAudio, "\(cut.lastPathComponent): \(error)")
                #expect(error.message.contains(cut.lastPathComponent))
            }
        }
        // A WAV cut inside its header.
        let header = directory.appendingPathComponent("header.wav")
        try AudioTestFiles.truncate(AudioTestFiles.jfk, to: 20, as: header)
        #expect(throws: EngineError.self) { try AudioDecoder.decode(contentsOf: header) }
    }
}
