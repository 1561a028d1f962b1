import Foundation
import TestSupport
import Testing
@testable import SpeechCLI

@Suite struct TranscribeCommandTests {
    func command(_ arguments: [String]) throws -> TranscribeCommand {
        let parsed = try ParsedArguments(arguments, specs: TranscribeCommand.help.options)
        let command = try TranscribeCommand(arguments: parsed)
        try command.validate()
        return command
    }

    @Test func defaults() throws {
        let command = try command(["a.wav"])
        #expect(command.files == ["a.wav"])
        #expect(command.format == .text)
        #expect(command.model == .named(.whisperBase))
        let options = command.options
        #expect(options.language == nil)
        #expect(options.beamSize == 5)
        #expect(options.threadCount == nil)
        #expect(options.addsPunctuation)
        #expect(!options.wordTimestamps)
        #expect(options.phrases.isEmpty)
        #expect(options.shortWindowPadding == .both)
    }

    @Test func paddingReachesBatchAndStreamingOptions() throws {
        let silence = try command(["a.wav", "--padding", "silence"])
        #expect(silence.options.shortWindowPadding == .silence)
        #expect(silence.decoding.streamingOptions().commitPadding == .silence)
        let both = try command(["a.wav", "--padding=both"])
        #expect(both.decoding.streamingOptions().commitPadding == .both)
        // Without --padding each path keeps its own default.
        let plain = try command(["a.wav"])
        #expect(plain.options.shortWindowPadding == .both)
        #expect(plain.decoding.streamingOptions().commitPadding == .silence)
        #expect(throws: UsageError.self) { try command(["a.wav", "--padding", "noise"]) }
    }

    @Test func optionsReachTheEngine() throws {
        let options = try command([
            "a.wav", "b.flac", "--language", "en-US", "--beam=1", "--threads", "2", "--words",
            "--prompt", "SpeechCompat, OpenBLAS.", "--phrase", "SpeechCompat", "--phrase", "OpenBLAS",
            "--no-punctuation", "--format", "json",
        ]).options
        #expect(options.language == "en")
        #expect(options.beamSize == 1)
        #expect(options.threadCount == 2)
        #expect(options.wordTimestamps)
        #expect(options.initialPrompt == "SpeechCompat, OpenBLAS.")
        #expect(options.phrases == ["SpeechCompat", "OpenBLAS"])
        #expect(!options.addsPunctuation)
    }

    @Test func autoLanguageAndEnglishOnlyModel() throws {
        #expect(try command(["a.wav", "--language", "auto"]).options.language == nil)
        #expect(try command(["a.wav", "--model", "whisper-tiny.en"]).options.language == "en")
        #expect(throws: UsageError.self) { try command(["a.wav", "--model", "whisper-tiny.en", "--language", "sv"]) }
    }

    @Test func usageMistakes() {
        #expect(throws: UsageError.self) { try command([]) }
        #expect(throws: UsageError.self) { try command(["a.wav", "b.wav", "--format", "srt"]) }
        #expect(throws: UsageError.self) { try command(["a.wav", "--format", "pdf"]) }
        #expect(throws: UsageError.self) { try command(["a.wav", "--language", "klingon"]) }
        #expect(throws: UsageError.self) { try command(["a.wav", "--beam", "17"]) }
        #expect(throws: UsageError.self) { try command(["a.wav", "--threads", "0"]) }
        #expect(throws: UsageError.self) { try command(["a.wav", "--model", "whisper-huge"]) }
        #expect(throws: UsageError.self) { try command(["a.wav", "--phrase", " "]) }
    }

    @Test func modelFolderIsAccepted() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try command(["a.wav", "--model", folder.path]).model
        guard case .directory(let url) = model else {
            Issue.record("expected a model folder, got \(model)")
            return
        }
        #expect(url.standardizedFileURL.path == folder.standardizedFileURL.path)
    }
}

@Suite struct TranscribeCommandRunTests {
    @Test func missingFileFailsWithExit1BeforeLoadingTheModel() async {
        let (console, captured) = Console.capturing()
        let status = await SpeechTool.main(["transcribe", "/nonexistent/clip.wav"], console: console)
        #expect(status == .failure)
        #expect(captured.standardError == "Error: No audio file at '/nonexistent/clip.wav'. Check the path.\n")
        #expect(captured.standardOutput.isEmpty)
    }
}
