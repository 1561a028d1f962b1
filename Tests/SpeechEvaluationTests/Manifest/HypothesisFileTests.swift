import Foundation
import Testing
@testable import SpeechEvaluation

@Suite struct HypothesisFileTests {
    @Test func linesFlattenTabsAndNewlines() {
        #expect(HypothesisFile.line(id: "a", hypothesis: " one\ttwo\nthree ") == "a\tone two three\n")
    }

    @Test func roundTripsThroughAFile() throws {
        var file = HypothesisFile()
        file.append(id: "clip-1", hypothesis: "Hello, world.")
        file.append(id: "clip-2", hypothesis: "")
        file.append(id: "clip-3", hypothesis: "真っ昼間")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hyp-\(UUID().uuidString).tsv")
        defer { try? FileManager.default.removeItem(at: url) }
        try file.write(to: url)
        let read = try HypothesisFile(contentsOf: url)
        #expect(read.ids == ["clip-1", "clip-2", "clip-3"])
        #expect(read.hypotheses["clip-1"] == "Hello, world.")
        #expect(read.hypotheses["clip-2"] == "")
        #expect(read.hypotheses["clip-3"] == "真っ昼間")
    }

    @Test func duplicateIDsAreRejected() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hyp-\(UUID().uuidString).tsv")
        defer { try? FileManager.default.removeItem(at: url) }
        try "a\tx\na\ty\n".write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: ManifestError.self) { try HypothesisFile(contentsOf: url) }
    }

    @Test func missingFileIsAnError() {
        #expect(throws: ManifestError.self) {
            try HypothesisFile(contentsOf: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).tsv"))
        }
    }
}
