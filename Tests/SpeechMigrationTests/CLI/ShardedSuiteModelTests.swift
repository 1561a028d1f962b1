import Foundation
import SpeechEvaluation
import SpeechMigration
import Testing
import TestSupport

/// A migration suite run by the `speech` program on the real engine, once
/// whole and once as three shards merged with `speech merge`: the merged
/// JSON and JUnit are byte-identical to the whole run's (issue 17).
///
/// Three short clips on two paths keep it to a few seconds in release. With
/// three shards the ids fall 2 / 0 / 1, so an empty shard is covered too.
@Suite("a sharded suite on the real engine merges into the whole run",
       .enabled(if: Models.testsEnabled, Models.disabledReason),
       .serialized)
struct ShardedSuiteModelTests {
    private let speech = ExampleProgram(name: "speech")

    private static let suiteJSON = """
    {
      "name": "sharded-smoke",
      "paths": ["legacy", "modern"],
      "cases": [
        {"id": "goforward", "audio": "corpus:audio/pocketsphinx/ps_goforward.wav",
         "reference": "go forward ten meters", "maximumWordErrorRate": 0.5},
        {"id": "cards", "audio": "corpus:audio/pocketsphinx/ps_cards_001.wav",
         "reference": "ten of clubs", "maximumWordErrorRate": 0.5},
        {"id": "comparatively", "audio": "corpus:audio/ljspeech/LJ001-0002.wav",
         "reference": "in being comparatively modern", "maximumWordErrorRate": 0.5}
      ]
    }
    """

    @Test("migrate-test on 3 shards + merge gives the whole run's JSON and JUnit, byte for byte")
    func threeShardsMergeIntoTheWholeRun() throws {
        let folder = try Fixtures.temporaryDirectory("sharded-suite")
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = folder.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
        try Self.suiteJSON.write(to: suite.appendingPathComponent("suite.json"), atomically: true, encoding: .utf8)
        let environment = ["SPEECHCOMPAT_CORPUS": Fixtures.corpusRoot.path, "OPENBLAS_NUM_THREADS": "1"]
        func file(_ name: String) -> String { folder.appendingPathComponent(name).path }

        let whole = try speech.run(["migrate-test", suite.path, "--json", file("whole.json"), "--junit", file("whole.xml")],
                                   environment: environment)
        #expect(whole.status == 0, "\(whole.output)\n\(whole.error)")
        #expect(["goforward", "cards", "comparatively"].map { Shard.index(of: $0, count: 3) } == [1, 1, 3])
        for index in 1...3 {
            let run = try speech.run(["migrate-test", suite.path, "--shard", "\(index)/3",
                                      "--json", file("shard-\(index).json"), "--junit", file("shard-\(index).xml")],
                                     environment: environment)
            #expect(run.status == 0, "shard \(index): \(run.error)")
            #expect(run.error.contains("Running suite sharded-smoke shard \(index)/3: \([2, 0, 1][index - 1]) of 3 cases"))
        }
        let merge = try speech.run(["merge", file("shard-3.json"), file("shard-1.json"), file("shard-2.json"),
                                    "--shards", "3", "--json", file("merged.json"), "--junit", file("merged.xml")])
        #expect(merge.status == 0, "\(merge.error)")
        let merged = try Data(contentsOf: URL(fileURLWithPath: file("merged.json")))
        #expect(merged == (try Data(contentsOf: URL(fileURLWithPath: file("whole.json")))))
        #expect(try String(contentsOfFile: file("merged.xml"), encoding: .utf8)
                == String(contentsOfFile: file("whole.xml"), encoding: .utf8))
        let result = try JSONDecoder().decode(SuiteResult.self, from: merged)
        #expect(result.cases.map(\.id) == ["goforward", "cards", "comparatively"])
        #expect(result.cases.allSatisfy { $0.outcomes.count == 2 && !$0.outcomes[0].transcript.isEmpty })
        #expect(merge.output.hasSuffix("3/3 cases passed, 0 of 9 checks failed: PASSED\n"))
    }
}
