import Foundation
import Testing
@testable import SpeechEvaluation

@Suite struct EvaluationManifestTests {
    let url = URL(fileURLWithPath: "/data/corpus/manifest.tsv")
    let header = "id\tset\tlanguage\tduration_s\tpath\tsource_repo_and_path\tlicense\treference_text\n"

    @Test func parsesRowsAndResolvesPathsAgainstTheManifestFolder() throws {
        let text = header
            + "jfk\tjfk\ten-US\t11.000\taudio/jfk/jfk.wav\tsrc\tPD\tAnd so my fellow Americans\n"
            + "\n# a comment\n"
            + "cv_ja\tother-lang\tja\t6.5\t/abs/ja.wav\tsrc\tCC0\t真っ昼間\r\n"
        let manifest = try EvaluationManifest(parsing: text, url: url)
        #expect(manifest.entries.count == 2)
        let jfk = manifest.entries[0]
        #expect(jfk.id == "jfk")
        #expect(jfk.language == "en")
        #expect(jfk.languageTag == "en-US")
        #expect(jfk.durationSeconds == 11)
        #expect(jfk.audioURL.path == "/data/corpus/audio/jfk/jfk.wav")
        #expect(jfk.referenceText == "And so my fellow Americans")
        #expect(manifest.entries[1].audioURL.path == "/abs/ja.wav")
        #expect(manifest.entries[1].referenceText == "真っ昼間")
        #expect(manifest.setNames == ["jfk", "other-lang"])
        #expect(manifest.entries(inSets: ["other-lang"]).map(\.id) == ["cv_ja"])
        #expect(manifest.entries(inSets: []).count == 2)
    }

    @Test func unquotesSpreadsheetQuotedFields() throws {
        let fields = ["LJ", "ljspeech", "en-US", "8.39", "a.wav", "s", "PD", #""the ""forty-two line Bible"" of""#]
        let text = header + fields.joined(separator: "\t") + "\n"
        let manifest = try EvaluationManifest(parsing: text, url: url)
        #expect(manifest.entries[0].referenceText == "the \"forty-two line Bible\" of")
    }

    @Test func missingColumnIsATypedError() {
        let text = "id\tset\tpath\treference_text\nx\ts\ta.wav\thello\n"
        #expect(throws: ManifestError.self) { try EvaluationManifest(parsing: text, url: url) }
        do {
            _ = try EvaluationManifest(parsing: text, url: url)
        } catch let error as ManifestError {
            #expect(error.code == .missingColumn)
            #expect(error.description.contains("language"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func shortRowNamesItsLine() {
        let text = header + "a\tset\ten\n"
        do {
            _ = try EvaluationManifest(parsing: text, url: url)
            Issue.record("expected an error")
        } catch let error as ManifestError {
            #expect(error.code == .malformedRow)
            #expect(error.line == 2)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func duplicateIDsAndBadDurationsAreRejected() {
        let duplicate = header + "a\ts\ten\t1\ta.wav\ts\tl\tx\n" + "a\ts\ten\t1\tb.wav\ts\tl\ty\n"
        #expect(throws: ManifestError.self) { try EvaluationManifest(parsing: duplicate, url: url) }
        let badDuration = header + "a\ts\ten\tlong\ta.wav\ts\tl\tx\n"
        #expect(throws: ManifestError.self) { try EvaluationManifest(parsing: badDuration, url: url) }
    }

    @Test func emptyFileAndMissingFileAreErrors() {
        #expect(throws: ManifestError.self) { try EvaluationManifest(parsing: "", url: url) }
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)/manifest.tsv")
        #expect(throws: ManifestError.self) { try EvaluationManifest(contentsOf: missing) }
    }
}

@Suite struct SharedCorpusManifestTests {
    /// `../shared/corpus/manifest.tsv` beside the package (read in place).
    static let manifestURL: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent().appendingPathComponent("shared/corpus/manifest.tsv")
    }()

    @Test(.enabled(if: FileManager.default.fileExists(atPath: manifestURL.path)))
    func parsesTheSharedCorpusManifest() throws {
        let manifest = try EvaluationManifest(contentsOf: Self.manifestURL)
        #expect(manifest.entries.count >= 70)
        #expect(manifest.setNames.contains("librispeech-dev-clean"))
        for entry in manifest.entries {
            #expect(FileManager.default.fileExists(atPath: entry.audioURL.path), "\(entry.id)")
            #expect(!entry.referenceText.isEmpty, "\(entry.id)")
        }
        let lj = try #require(manifest.entries.first { $0.id == "LJ001-0007" })
        #expect(lj.referenceText.hasPrefix("the earliest book printed"))
        // Every English reference normalises to something scoreable.
        let scorer = TranscriptScorer()
        for entry in manifest.entries {
            #expect(!scorer.units(of: entry.referenceText, languageTag: entry.languageTag).isEmpty, "\(entry.id)")
        }
    }
}
