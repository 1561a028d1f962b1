import Foundation
import struct SpeechEngine.AssetStore
import TestSupport
import Testing
@testable import SpeechCLI

/// `speech transcribe` and `speech compare` on paths that are not audio
/// files and on damaged model folders: exit status 1 and one `Error:` line
/// that says what the path is, before any model loads; never exit 0 with an
/// empty transcript, never a hang, never a trap.
@Suite struct TranscribeCommandInputsTests {
    func run(_ arguments: [String]) async -> (status: SpeechCLI.ExitStatus, output: String, error: String) {
        let (console, captured) = Console.capturing()
        let status = await SpeechTool.main(arguments, console: console)
        return (status, captured.standardOutput, captured.standardError)
    }

    func expectRefused(_ path: String, saying phrase: String, command: String = "transcribe") async {
        let result = await run([command, path])
        #expect(result.status == .failure, "\(command) \(path)")
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("Error: '\(path)' \(phrase)"), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1)
    }

    @Test func devNull() async {
        await expectRefused("/dev/null", saying: "is a device, not an audio file")
    }

    @Test func devZero() async {
        await expectRefused("/dev/zero", saying: "is a device, not an audio file")
    }

    @Test func zeroByteWav() async throws {
        let folder = try Fixtures.temporaryDirectory("cli-inputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.wav")
        try Data().write(to: empty)
        await expectRefused(empty.path, saying: "is empty (0 bytes)")
    }

    @Test func fifo() async throws {
        let folder = try Fixtures.temporaryDirectory("cli-inputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.wav").path
        #expect(mkfifo(fifo, 0o600) == 0)
        await expectRefused(fifo, saying: "is a pipe (FIFO)")
    }

    @Test func directory() async throws {
        let folder = try Fixtures.temporaryDirectory("cli-inputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        await expectRefused(folder.path, saying: "is a directory")
    }

    @Test func symlinkLoop() async throws {
        let folder = try Fixtures.temporaryDirectory("cli-inputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("loop.wav").path
        #expect(symlink(link, link) == 0)
        await expectRefused(link, saying: "is a symbolic link that loops")
    }

    @Test func compareRefusesDevicesAndEmptyFiles() async throws {
        await expectRefused("/dev/null", saying: "is a device, not an audio file", command: "compare")
        let folder = try Fixtures.temporaryDirectory("cli-inputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.wav")
        try Data().write(to: empty)
        await expectRefused(empty.path, saying: "is empty (0 bytes)", command: "compare")
    }

    /// One bad path among several still fails the whole command up front.
    @Test func oneBadPathAmongSeveral() async {
        let clip = Fixtures.corpusClip("audio/jfk/jfk_openai_whisper.wav").path
        let result = await run(["transcribe", clip, "/dev/zero"])
        #expect(result.status == .failure)
        #expect(result.error.hasPrefix("Error: '/dev/zero' is a device"))
    }

    /// A model folder given by path whose model.bin is cut short.
    @Test func truncatedModelFolderByPath() async throws {
        let folder = try Fixtures.temporaryDirectory("cli-model")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([6, 0, 0, 0, 12, 0] + Array("WhisperSpe".utf8)).write(to: folder.appendingPathComponent("model.bin"))
        let clip = Fixtures.corpusClip("audio/jfk/jfk_openai_whisper.wav").path
        let result = await run(["transcribe", clip, "--model", folder.path])
        #expect(result.status == .failure)
        #expect(result.error.hasPrefix("Error: "))
        #expect(result.error.contains("model.bin is corrupted (file ends early: truncated)"))
        #expect(result.error.contains("speech assets install"))
    }

    /// The installed tiny.en copied to a folder with bytes flipped in its
    /// weights (a bad disk, a partial copy): refused by its SHA-256 before
    /// it loads, naming the file and the install command.
    @Test func flippedBytesInACopiedModelFolder() async throws {
        let source = try AssetStore.default.requireInstalled(.whisperTinyEn)
        let folder = try Fixtures.temporaryDirectory("cli-model")
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("tiny")
        try FileManager.default.copyItem(at: source, to: copy)
        let modelBin = copy.appendingPathComponent("model.bin")
        let handle = try FileHandle(forUpdating: modelBin)
        for offset in stride(from: UInt64(1_000_000), to: 70_000_000, by: 9_000_000) {
            try handle.seek(toOffset: offset)
            try handle.write(contentsOf: Data([0xFF, 0x7F]))
        }
        try handle.close()
        let clip = Fixtures.corpusClip("audio/jfk/jfk_openai_whisper.wav").path
        let result = await run(["transcribe", clip, "--model", copy.path])
        #expect(result.status == .failure)
        #expect(result.error.contains("\(modelBin.path) is corrupted: its SHA-256 is"))
        #expect(result.error.contains("Run `speech assets install whisper-tiny.en` to reinstall it."))
    }
}
