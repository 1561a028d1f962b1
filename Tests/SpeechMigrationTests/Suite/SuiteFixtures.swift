import Foundation
import SpeechMigration
import TestSupport

/// Suite folders written for a test, and a recorded stand-in for the faces
/// (the real faces run in the `…ModelTests` suites): what these tests check
/// is the suite logic (paths, decoding, sharding, merging), not recognition.
enum SuiteFixtures {
    /// A temporary folder holding `suite.json` with `json`; the caller removes it.
    static func folder(_ json: String) throws -> URL {
        let folder = try Fixtures.temporaryDirectory("suite")
        try json.write(to: folder.appendingPathComponent("suite.json"), atomically: true, encoding: .utf8)
        return folder
    }

    /// "Recognizes" a file by its name: `cN.wav` gives "case N said here" on
    /// every path except that the modern path of every third case says
    /// "case N sad here" (so the reports hold failures too). Other names
    /// fail as an unreadable file would.
    static func recognize(_ path: RecognitionPath, _ url: URL) async throws -> RecognitionOutcome {
        let name = url.deletingPathExtension().lastPathComponent
        guard name.hasPrefix("c"), let number = Int(name.dropFirst()) else {
            throw MigrationError(.audioUnreadable, "The audio file \(url.path) does not exist or cannot be read.")
        }
        let word = path == .modern && number % 3 == 0 ? "sad" : "said"
        return OutcomeFixtures.outcome(path, "case \(number) \(word) here")
    }

    /// A suite of `count` cases `c0`…, with references, half with goldens.
    static func shardableSuite(count: Int) -> String {
        let cases = (0..<count).map { number in
            #"{"id": "c\#(number)", "audio": "c\#(number).wav", "reference": "case \#(number) said here", "#
                + #""maximumWordErrorRate": 0.1\#(number % 2 == 0 ? #", "golden": true"# : "")}"#
        }
        return #"{"name": "shardable", "paths": ["legacy", "modern"], "cases": [\#n  "#
            + cases.joined(separator: ",\n  ") + "\n]}"
    }
}
