import Foundation
import SpeechEvaluation
import Testing
@testable import SpeechCLI

@Suite struct StreamingEvaluationTests {
    static func entry(_ id: String, set: String, language: String, reference: String) -> ManifestEntry {
        ManifestEntry(id: id, set: set, languageTag: language, durationSeconds: 10,
                      audioURL: URL(fileURLWithPath: "/nonexistent/\(id).wav"), referenceText: reference)
    }

    static func clip(_ entry: ManifestEntry, stream: String, batch: String) -> StreamingEvaluation.ClipResult {
        StreamingEvaluation.ClipResult(
            stream: EvalCommand.scoredClip(entry, hypothesis: stream, sampleCount: 0, processingSeconds: 2),
            batch: EvalCommand.scoredClip(entry, hypothesis: batch, sampleCount: 0, processingSeconds: 1))
    }

    /// Two English sets (one excluded from the English total) and a Japanese clip.
    static let comparison = StreamingComparison(clips: [
        clip(entry("a", set: "news", language: "en-US", reference: "the quick brown fox jumps"),
             stream: "the quick brown fox", batch: "The quick brown fox jumps."),
        clip(entry("b", set: "news", language: "en", reference: "over the lazy sleeping dog"),
             stream: "over the lazy sleeping dog", batch: "over the lazy sleeping dog"),
        clip(entry("c", set: "digits", language: "en", reference: "one two"),
             stream: "one", batch: "one"),
        clip(entry("d", set: "cjk", language: "ja", reference: "真っ昼間"),
             stream: "真っ昼間", batch: "真昼間"),
    ], excludedFromEnglishTotal: ["digits"])

    @Test func rowsPairStreamAndBatchPerSet() throws {
        let sets = Self.comparison.sets
        #expect(sets.map(\.name) == ["news", "digits", "cjk"])
        let news = sets[0]
        #expect(news.clips == 2 && news.units == 10)
        #expect(news.streamRate == 0.1 && news.batchRate == 0)
        #expect(abs(news.differencePoints - 10) < 1e-9)
        #expect(news.streamRealTimeFactor == 0.2 && news.batchRealTimeFactor == 0.1)
        #expect(sets[2].metric == "CER" && sets[2].streamRate == 0 && sets[2].batchRate == 0.25)
    }

    @Test func englishTotalLeavesOutExcludedSets() throws {
        let english = try #require(Self.comparison.english)
        #expect(english.clips == 2)
        #expect(english.streamRate == 0.1 && english.batchRate == 0)
        #expect(Self.comparison.totals.map(\.name) == ["all (WER)", "all (CER)"])
    }

    @Test func tableShowsBothRatesAndTheDifference() {
        let table = Self.comparison.table
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines[0] == StreamingComparison.headerRow)
        #expect(lines[0].contains("stream") && lines[0].contains("batch") && lines[0].contains("diff"))
        let news = lines.first { $0.hasPrefix("news ") }
        #expect(news?.hasSuffix("WER         2     10   10.00%    0.00%   +10.00    0.200    0.100") == true,
                "\(table)")
        let english = lines.first { $0.hasPrefix("english ") }
        #expect(english?.contains("10.00%    0.00%   +10.00") == true, "\(table)")
        let cjk = lines.first { $0.hasPrefix("cjk ") }
        #expect(cjk?.contains("0.00%   25.00%   -25.00") == true, "\(table)")
        #expect(lines.last?.hasPrefix("diff: stream minus batch") == true)
    }

    @Test func jsonHasTheComparisonAndBothSides() throws {
        let document = StreamingEvaluationDocument(comparison: Self.comparison, modelLoadSeconds: 1.5,
                                                   volatileModel: "whisper-tiny.en")
        let json = try JSONOutput.encode(document)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["mode"] as? String == "stream")
        #expect(object["volatileModel"] as? String == "whisper-tiny.en")
        let english = try #require(object["english"] as? [String: Any])
        #expect(english["streamRate"] as? Double == 0.1)
        #expect(english["batchRate"] as? Double == 0)
        let stream = try #require(object["stream"] as? [String: Any])
        let batch = try #require(object["batch"] as? [String: Any])
        let streamClips = try #require(stream["clips"] as? [[String: Any]])
        let batchClips = try #require(batch["clips"] as? [[String: Any]])
        #expect(streamClips.first?["hypothesis"] as? String == "the quick brown fox")
        #expect(batchClips.first?["hypothesis"] as? String == "The quick brown fox jumps.")
        #expect((object["sets"] as? [Any])?.count == 3)
    }

    @Test func streamParsesAndExcludesScore() throws {
        let parsed = try ParsedArguments(["m.tsv", "--stream", "--set", "news"], specs: EvalCommand.help.options)
        let command = try EvalCommand(arguments: parsed)
        try command.validate()
        #expect(command.stream)
        let both = try ParsedArguments(["m.tsv", "--stream", "--score", "h.tsv"], specs: EvalCommand.help.options)
        #expect(throws: UsageError.self) { try EvalCommand(arguments: both).validate() }
    }
}
