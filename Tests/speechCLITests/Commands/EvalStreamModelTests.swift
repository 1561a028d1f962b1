import Foundation
import SpeechEvaluation
import Testing
import TestSupport
@testable import SpeechCLI

/// `speech eval --stream` and `speech bench --stream` through the real models
/// on short corpus clips. This suite lives beside the CLI's unit tests because
/// only this test target can import the CLI.
@Suite(.serialized, .enabled(if: Models.testsEnabled, Models.disabledReason))
struct EvalStreamModelTests {
    static let clipIDs: Set<String> = ["jfk_openai_whisper", "1272-128104-0000", "ps_goforward"]

    /// The corpus rows of `clipIDs` in a manifest of their own, with absolute
    /// audio paths so the manifest can live in a temporary folder.
    static func makeManifest(in folder: URL) throws -> URL {
        let corpus = try String(contentsOf: Fixtures.corpusRoot.appendingPathComponent("manifest.tsv"), encoding: .utf8)
        var lines = corpus.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        let header = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        let idColumn = try #require(header.firstIndex(of: "id"))
        let pathColumn = try #require(header.firstIndex(of: "path"))
        var rows = [header.joined(separator: "\t")]
        for line in lines {
            var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count > pathColumn, clipIDs.contains(fields[idColumn]) else { continue }
            fields[pathColumn] = Fixtures.corpusClip(fields[pathColumn]).path
            rows.append(fields.joined(separator: "\t"))
        }
        #expect(rows.count == clipIDs.count + 1, "clips missing from the corpus manifest")
        let url = folder.appendingPathComponent("manifest.tsv")
        try (rows.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func run(_ arguments: [String]) async -> (SpeechCLI.ExitStatus, String, String) {
        let (console, captured) = Console.capturing()
        let status = await SpeechTool.main(arguments, console: console)
        return (status, captured.standardOutput, captured.standardError)
    }

    /// `--live-passes` runs the volatile passes and the passes at pauses as a
    /// stream that keeps up would, and gives the same text every run whatever
    /// the machine's load (what makes it a measure and not a sample).
    @Test func livePassesGiveTheSameTextEveryRun() async throws {
        let folder = try Fixtures.temporaryDirectory("eval-live")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try Self.makeManifest(in: folder)
        var runs: [[String: String]] = []
        for _ in 0..<2 {
            let (status, output, error) = await run(["eval", manifest.path, "--stream", "--live-passes",
                                                     "--format", "json"])
            try #require(status == .success, "\(error)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            let clips = try #require((object["stream"] as? [String: Any])?["clips"] as? [[String: Any]])
            runs.append(Dictionary(uniqueKeysWithValues: clips.map {
                ($0["id"] as? String ?? "?", $0["hypothesis"] as? String ?? "")
            }))
            let rate = try #require((object["english"] as? [String: Any])?["streamRate"] as? Double)
            #expect(rate < 0.2, "clean read speech, \(rate)")
        }
        #expect(runs[0].count == 3 && runs[0] == runs[1])
    }

    @Test func streamAndBatchAreScoredOnTheSameClips() async throws {
        let folder = try Fixtures.temporaryDirectory("eval-stream")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try Self.makeManifest(in: folder)
        let hypotheses = folder.appendingPathComponent("stream.tsv")
        let (status, output, error) = await run(["eval", manifest.path, "--stream", "--format", "json",
                                                 "--hypotheses", hypotheses.path])
        try #require(status == .success, "\(error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(object["mode"] as? String == "stream")

        let english = try #require(object["english"] as? [String: Any])
        #expect(english["clips"] as? Int == 3)
        let streamRate = try #require(english["streamRate"] as? Double)
        let batchRate = try #require(english["batchRate"] as? Double)
        // Clean read speech: both well under 20 % (whisper-base gets these nearly right).
        #expect(streamRate < 0.2 && batchRate < 0.2, "stream \(streamRate), batch \(batchRate)")

        let streamClips = try #require((object["stream"] as? [String: Any])?["clips"] as? [[String: Any]])
        let batchClips = try #require((object["batch"] as? [String: Any])?["clips"] as? [[String: Any]])
        #expect(streamClips.count == 3 && batchClips.count == 3)
        let scorer = TranscriptScorer()
        for (stream, batch) in zip(streamClips, batchClips) {
            let id = stream["id"] as? String ?? "?"
            #expect(stream["id"] as? String == batch["id"] as? String)
            let streamText = stream["hypothesis"] as? String ?? ""
            let batchText = batch["hypothesis"] as? String ?? ""
            #expect(!streamText.trimmingCharacters(in: .whitespaces).isEmpty, "\(id): empty stream")
            // Each clip is one utterance, committed in one final pass over the same audio as batch.
            let difference = scorer.score(reference: batchText, hypothesis: streamText, languageTag: "en").counts.rate
            #expect(difference <= 0.1, "\(id): stream '\(streamText)' vs batch '\(batchText)'")
        }

        let written = try HypothesisFile(contentsOf: hypotheses)
        #expect(written.hypotheses.count == 3)
        for clip in streamClips {
            let id = clip["id"] as? String ?? "?"
            #expect(written.hypotheses[id] == clip["hypothesis"] as? String, "\(id)")
        }
    }

    @Test func benchStreamRecordsRSSAtEachMark() async throws {
        let jfk = Fixtures.corpusClip("audio/jfk/jfk_openai_whisper.wav").path
        let (status, output, error) = await run(["bench", "--stream", jfk, "--fast", "--rss-every", "5",
                                                 "--format", "json"])
        try #require(status == .success, "\(error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let timeline = try #require(object["residentTimeline"] as? [String: Any])
        let points = try #require(timeline["points"] as? [[String: Any]])
        let positions = points.compactMap { $0["audioSeconds"] as? Double }
        #expect(positions.count == 4 && zip([0.0, 5, 10, 11], positions).allSatisfy { abs($0 - $1) < 1e-6 },
                "\(positions)")
        let resident = points.compactMap { $0["residentMegabytes"] as? Double }
        let peaks = points.compactMap { $0["peakResidentMegabytes"] as? Double }
        // Both models are loaded before the stream starts: well over 100 MB from the first point.
        #expect(resident.count == 4 && resident.allSatisfy { $0 > 100 }, "\(resident)")
        #expect(zip(resident, peaks).allSatisfy { $0 <= $1 + 0.01 })
        #expect(peaks == peaks.sorted(), "the peak never falls: \(peaks)")
        let wer = try #require(object["committedVersusBatchWER"] as? Double)
        #expect(wer <= 0.05)
    }

    /// The stream reads its file as it goes: a file that is not audio fails the
    /// stream at once with the file's own error (not a hang, not "cancelled").
    @Test func benchStreamOfAFileThatIsNotAudioNamesTheFile() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notAudio = folder.appendingPathComponent("notes.wav")
        try Data("not audio at all\n".utf8).write(to: notAudio)
        let (status, _, error) = await run(["bench", "--stream", notAudio.path, "--fast", "--no-batch"])
        #expect(status == .failure)
        #expect(error.contains("'\(notAudio.path)' is not audio in a format libsndfile decodes"), "\(error)")
        #expect(!error.contains("cancelled"), "\(error)")
    }
}
