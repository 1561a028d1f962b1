import CSndFile
import Foundation
import TestSupport
import Testing
@testable import SpeechEngine

/// Paths that are not audio files, and float files with NaN and Inf
/// samples: each path is refused with its own message before libsndfile
/// opens it (so a pipe or `/dev/zero` cannot hang or pass as silence), and
/// non-finite samples reach no math.
@Suite struct AudioDecoderInputsTests {
    func refusal(_ path: String) throws -> EngineError {
        let error = try #require(throws: EngineError.self) { try AudioDecoder.decode(contentsOf: URL(fileURLWithPath: path)) }
        #expect(error.code == .unreadableAudio)
        #expect(error.message.contains("'\(path)'"))
        return error
    }

    @Test func devNullIsRefusedAsADevice() throws {
        #expect(try refusal("/dev/null").message.contains("is a device, not an audio file"))
    }

    @Test func devZeroIsRefusedAsADevice() throws {
        #expect(try refusal("/dev/zero").message.contains("is a device, not an audio file"))
    }

    @Test func fifoIsRefusedWithoutBlocking() throws {
        let folder = try Fixtures.temporaryDirectory("audio-inputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("stream.wav").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opening a FIFO with no writer would block forever: the check must not open it.
        #expect(try refusal(fifo).message.contains("is a pipe (FIFO)"))
    }

    @Test func directoryIsRefused() throws {
        let folder = try Fixtures.temporaryDirectory("audio-inputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try refusal(folder.path).message.contains("is a directory"))
    }

    @Test func symlinkLoopIsNamedAsALoop() throws {
        let folder = try Fixtures.temporaryDirectory("audio-inputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.wav").path, b = folder.appendingPathComponent("b.wav").path
        #expect(symlink(b, a) == 0 && symlink(a, b) == 0)
        let error = try refusal(a)
        #expect(error.message.contains("symbolic link that loops"))
        #expect(!error.message.contains("No audio file"))
    }

    @Test func danglingSymlinkIsNamed() throws {
        let folder = try Fixtures.temporaryDirectory("audio-inputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("gone.wav").path
        #expect(symlink(folder.appendingPathComponent("missing.wav").path, link) == 0)
        #expect(try refusal(link).message.contains("symbolic link to a file that does not exist"))
    }

    @Test func symlinkToAClipIsRead() throws {
        let folder = try Fixtures.temporaryDirectory("audio-inputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("clip.wav")
        #expect(symlink(AudioTestFiles.jfk.path, link.path) == 0)
        #expect(try AudioDecoder.decode(contentsOf: link).count == (try AudioDecoder.decode(contentsOf: AudioTestFiles.jfk)).count)
    }

    @Test func missingFileIsNamed() throws {
        #expect(try refusal("/nonexistent/clip.wav").message == "No audio file at '/nonexistent/clip.wav'. Check the path.")
    }

    /// A float WAV with NaN, +Inf and -Inf samples decodes as if they were
    /// silent: finite everywhere, equal to the file with those samples zeroed.
    @Test func floatWavWithNonFiniteSamplesIsRepaired() throws {
        let folder = try Fixtures.temporaryDirectory("audio-inputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        var samples = (0..<16_000).map { Float(sin(Double($0) * 0.05) * 0.5) }
        var zeroed = samples
        for (index, bad) in [(100, Float.nan), (5_000, .infinity), (9_000, -.infinity), (9_001, .nan)] {
            samples[index] = bad
            zeroed[index] = 0
        }
        let damaged = folder.appendingPathComponent("nan.wav"), clean = folder.appendingPathComponent("zeroed.wav")
        let format = Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)
        try AudioTestFiles.write(samples, sampleRate: 16_000, channels: 1, format: format, to: damaged)
        try AudioTestFiles.write(zeroed, sampleRate: 16_000, channels: 1, format: format, to: clean)
        let decoded = try AudioDecoder.decode(contentsOf: damaged)
        #expect(!SampleSanitizer.needsRepair(decoded))
        #expect(decoded == (try AudioDecoder.decode(contentsOf: clean)))
    }

    /// The same at 44.1 kHz stereo, where the samples go through the resampler,
    /// whose filter would otherwise smear each NaN over its neighbours.
    @Test func resampledFloatWavWithNaNStaysFinite() throws {
        let folder = try Fixtures.temporaryDirectory("audio-inputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        var interleaved = (0..<(2 * 44_100)).map { Float(sin(Double($0) * 0.01) * 0.3) }
        for index in stride(from: 7, to: interleaved.count, by: 4_001) { interleaved[index] = .nan }
        let url = folder.appendingPathComponent("nan-44k.wav")
        try AudioTestFiles.write(interleaved, sampleRate: 44_100, channels: 2,
                                 format: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT), to: url)
        let decoded = try AudioDecoder.decode(contentsOf: url)
        #expect(decoded.count > 15_000)
        #expect(!SampleSanitizer.needsRepair(decoded))
    }
}
