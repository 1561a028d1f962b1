import Foundation
import Testing
@testable import SpeechEvaluation

/// `--shard I/N`: parsing, and the stable assignment of ids to shards.
@Suite struct ShardTests {
    @Test("the hash is 64-bit FNV-1a: the published test vectors")
    func stableHashIsFNV1a() {
        #expect(Shard.stableHash("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.stableHash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.stableHash("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test("ids go to fixed shards, independent of order and of the other ids")
    func assignmentIsFixedAndPartitions() throws {
        // Pinned: a change here would move cases between CI jobs and break merging of older reports.
        #expect(["goforward", "cards", "comparatively", "quilter", "arctic"].map { Shard.index(of: $0, count: 3) }
                == [1, 1, 3, 1, 2])
        let ids = (0..<500).map { "clip-\($0)" }
        for count in [1, 2, 3, 7] {
            let shards = try (1...count).map { try Shard(index: $0, count: count) }
            let parts = shards.map { shard in shard.select(ids, id: { $0 }) }
            #expect(parts.flatMap { $0 }.sorted() == ids.sorted(), "every id in exactly one of \(count) shards")
            #expect(parts.allSatisfy { count == 1 || $0.count > 500 / count / 2 }, "roughly even: \(parts.map(\.count))")
            #expect(parts[0] == shards[0].select(ids.reversed(), id: { $0 }).reversed(), "order does not matter")
        }
    }

    @Test func parsesIOverN() throws {
        let shard = try Shard(parsing: "2/4")
        #expect(shard.index == 2 && shard.count == 4 && shard.description == "2/4")
        #expect(try Shard(parsing: "1/1") == .whole)
    }

    @Test("malformed shards: each a typed error with the expected form", arguments: [
        "", "2", "2/", "/4", "a/b", "2/4/8", " 2/4", "2/4 ", "+2/4", "2.0/4", "-1/4", "2-4", "1234567890/2",
    ])
    func malformedShardIsRefused(_ text: String) {
        let error = #expect(throws: ShardError.self) { try Shard(parsing: text) }
        #expect(error?.code == .malformed)
        #expect(error?.description == "Invalid shard '\(text)': expected I/N, two whole numbers such as 2/4 (the second of four shards).")
    }

    @Test func indexZeroIsRefused() {
        let error = #expect(throws: ShardError.self) { try Shard(parsing: "0/4") }
        #expect(error?.code == .indexOutOfRange)
        #expect(error?.message == "the shard index 0 must be from 1 to 4 (shards count from 1).")
    }

    @Test func indexAboveCountIsRefused() {
        let error = #expect(throws: ShardError.self) { try Shard(parsing: "5/4") }
        #expect(error?.code == .indexOutOfRange && error?.message.hasPrefix("the shard index 5 must be from 1 to 4") == true)
    }

    @Test func countZeroIsRefused() {
        let error = #expect(throws: ShardError.self) { try Shard(parsing: "1/0") }
        #expect(error?.code == .countOutOfRange && error?.message == "the shard count 0 must be from 1 to 10000.")
        #expect((#expect(throws: ShardError.self) { try Shard(parsing: "1/10001") })?.code == .countOutOfRange)
    }

    @Test func manifestEntriesOfAShardKeepManifestOrder() throws {
        let text = "id\tset\tlanguage\tpath\treference_text\n"
            + (0..<20).map { "c\($0)\ts\ten\tc\($0).wav\tx\n" }.joined()
        let manifest = try EvaluationManifest(parsing: text, url: URL(fileURLWithPath: "/m/manifest.tsv"))
        let shards = try (1...3).map { try manifest.entries(inSets: [], shard: Shard(index: $0, count: 3)).map(\.id) }
        #expect(shards.flatMap { $0 }.count == 20)
        for part in shards { #expect(part == manifest.entries.map(\.id).filter(part.contains)) }
        #expect(manifest.entries(inSets: [], shard: .whole).count == 20)
    }
}
