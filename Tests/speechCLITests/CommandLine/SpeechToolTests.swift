import Testing
@testable import SpeechCLI

@Suite struct SpeechToolTests {
    func run(_ arguments: [String]) async -> (SpeechCLI.ExitStatus, String, String) {
        let (console, captured) = Console.capturing()
        let status = await SpeechTool.main(arguments, console: console)
        return (status, captured.standardOutput, captured.standardError)
    }

    @Test func noArgumentsPrintsHelp() async {
        let (status, output, error) = await run([])
        #expect(status == .success)
        #expect(output.hasPrefix("OVERVIEW: "))
        #expect(error.isEmpty)
    }

    @Test func versionAndHelp() async {
        let (status, output, _) = await run(["--version"])
        #expect(status == .success)
        #expect(output == "speech \(SpeechTool.version) (SpeechCompat)\n")
        #expect(await run(["--help"]).1.contains("SUBCOMMANDS:"))
        #expect(await run(["-h"]).0 == .success)
    }

    @Test func helpSubcommandShowsThatCommandsHelp() async {
        let (status, output, _) = await run(["help", "transcribe"])
        #expect(status == .success)
        #expect(output == TranscribeCommand.help.text + "\n" || output == TranscribeCommand.help.text)
        #expect(await run(["help", "assets", "list"]).1.contains("USAGE: speech assets list"))
        #expect(await run(["help"]).1.contains("SUBCOMMANDS:"))
    }

    @Test func helpFlagOnEveryCommand() async {
        for path in [["transcribe"], ["eval"], ["bench"], ["assets"], ["assets", "list"], ["assets", "install"], ["assets", "remove"]] {
            let (status, output, _) = await run(path + ["--help"])
            #expect(status == .success, "\(path)")
            #expect(output.contains("USAGE: speech \(path.joined(separator: " "))"), "\(path)")
        }
    }

    @Test func unknownSubcommandIsAUsageError() async {
        let (status, output, error) = await run(["frobnicate"])
        #expect(status == .usage)
        #expect(output.isEmpty)
        let lines = error.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.first == "Error: Unknown subcommand 'frobnicate'.")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: speech ") == true)
        #expect(lines.last == "See 'speech --help' for more information.")
        #expect(await run(["help", "nope"]).0 == .usage)
        #expect(await run(["assets", "nope"]).0 == .usage)
    }

    @Test func commandUsageErrorsExit64WithTheThreeLines() async {
        let (status, _, error) = await run(["transcribe", "a.wav", "--beam", "0"])
        #expect(status == .usage)
        #expect(error.contains("Error: The value '0' for '--beam' must be a whole number from 1 to 16."))
        #expect(error.contains("Usage: speech transcribe <file>..."))
        #expect(error.contains("See 'speech transcribe --help' for more information."))
        #expect(await run(["transcribe"]).0 == .usage)
        #expect(await run(["transcribe", "a.wav", "--format", "docx"]).0 == .usage)
        #expect(await run(["transcribe", "a.wav", "--language", "xx"]).0 == .usage)
        #expect(await run(["eval"]).0 == .usage)
        #expect(await run(["bench", "a.wav", "--runs", "0"]).0 == .usage)
        #expect(await run(["assets", "remove", "whisper-huge"]).0 == .usage)
    }

    @Test func runtimeFailuresExit1WithAnErrorLine() async {
        let (status, output, error) = await run(["eval", "/nonexistent/manifest.tsv", "--score", "/nonexistent/h.tsv"])
        #expect(status == .failure)
        #expect(output.isEmpty)
        #expect(error.hasPrefix("Error: /nonexistent/manifest.tsv: cannot read the manifest"))
        #expect(!error.contains("Usage:"))
    }
}
