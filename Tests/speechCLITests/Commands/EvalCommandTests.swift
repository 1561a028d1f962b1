import Foundation
import SpeechEvaluation
import Testing
import TestSupport
@testable import SpeechCLI

@Suite struct EvalCommandTests {
    /// A manifest of three clips (two sets) and a hypotheses file for them.
    func makeFixture() throws -> (folder: URL, manifest: URL, hypotheses: URL) {
        let folder = try Fixtures.temporaryDirectory("speech-eval")
        let manifest = folder.appendingPathComponent("manifest.tsv")
        try """
        id\tset\tlanguage\tduration_s\tpath\treference_text
        a\tnews\ten-US\t2.0\taudio/a.wav\tMISTER SMITH WENT TO TOWN
        b\tnews\ten\t3.0\taudio/b.wav\tten of clubs
        c\tcjk\tja\t1.0\taudio/c.wav\t真っ昼間
        """.write(to: manifest, atomically: true, encoding: .utf8)
        let hypotheses = folder.appendingPathComponent("hyp.tsv")
        try "a\tMr. Smith went to the town.\nb\t10 of clubs\nc\t真昼間\n"
            .write(to: hypotheses, atomically: true, encoding: .utf8)
        return (folder, manifest, hypotheses)
    }

    func run(_ arguments: [String]) async -> (SpeechCLI.ExitStatus, String, String) {
        let (console, captured) = Console.capturing()
        let status = await SpeechTool.main(["eval"] + arguments, console: console)
        return (status, captured.standardOutput, captured.standardError)
    }

    @Test func scoresAHypothesesFileWithoutTheModel() async throws {
        let fixture = try makeFixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let (status, output, error) = await run([fixture.manifest.path, "--score", fixture.hypotheses.path])
        #expect(status == .success, "\(error)")
        // news: 1 insertion ("the") over 5 + 3 words = 12.50 %; cjk: 1 deletion of 4 characters.
        let news = output.split(separator: "\n").first { $0.hasPrefix("news") }
        #expect(news?.contains("12.50%") == true, "\(output)")
        let cjk = output.split(separator: "\n").first { $0.hasPrefix("cjk") }
        #expect(cjk?.contains("CER") == true)
        #expect(cjk?.contains("25.00%") == true, "\(output)")
        #expect(output.contains("english"))
    }

    @Test func diffsShowEachClipWithErrors() async throws {
        let fixture = try makeFixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let (status, output, _) = await run([fixture.manifest.path, "--score", fixture.hypotheses.path, "--diffs"])
        #expect(status == .success)
        #expect(output.contains("\nc (CER 25.0%)\n  真 [-っ-] 昼 間\n"), "\(output)")
        #expect(output.contains("\na (WER 20.0%)\n  mister smith went to {+the+} town\n"), "\(output)")
        #expect(!output.contains("\nb ("))
    }

    @Test func jsonOutput() async throws {
        let fixture = try makeFixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let (status, output, _) = await run([fixture.manifest.path, "--score", fixture.hypotheses.path,
                                             "--set", "news", "--format", "json"])
        #expect(status == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let clips = try #require(object["clips"] as? [[String: Any]])
        #expect(clips.map { $0["id"] as? String } == ["a", "b"])
        let english = try #require(object["english"] as? [String: Any])
        #expect(english["rate"] as? Double == 0.125)
    }

    @Test func missingHypothesesCountAsEmptyWithAWarning() async throws {
        let fixture = try makeFixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        try "a\tmister smith went to town\n".write(to: fixture.hypotheses, atomically: true, encoding: .utf8)
        let (status, output, error) = await run([fixture.manifest.path, "--score", fixture.hypotheses.path,
                                                 "--set", "news"])
        #expect(status == .success)
        #expect(error.contains("Warning: 1 clips have no hypothesis"))
        // b's 3 words are all deleted: 3 / 8.
        #expect(output.contains("37.50%"), "\(output)")
    }

    @Test func usageMistakes() async throws {
        let fixture = try makeFixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        #expect(await run([]).0 == .usage)
        #expect(await run([fixture.manifest.path, "other.tsv"]).0 == .usage)
        #expect(await run([fixture.manifest.path, "--score", "h.tsv", "--hypotheses", "o.tsv"]).0 == .usage)
        #expect(await run([fixture.manifest.path, "--commit-window", "whole"]).0 == .usage, "--commit-window needs --stream")
        #expect(await run([fixture.manifest.path, "--stream", "--commit-window", "half"]).0 == .usage)
        #expect(await run([fixture.manifest.path, "--live-passes"]).0 == .usage, "it needs --stream")
        let (status, _, error) = await run([fixture.manifest.path, "--score", fixture.hypotheses.path, "--set", "nope"])
        #expect(status == .usage)
        #expect(error.contains("Unknown set 'nope'; the manifest has: news, cjk."))
    }
}
