import Foundation

/// One input a fuzz target starts from.
public struct FuzzSeed: Sendable {
    /// A name for reports (the seed file's name).
    public var name: String
    /// The input's bytes.
    public var bytes: [UInt8]
    /// The extension of the file the input is written to (`wav`, `json`),
    /// which some parsers look at.
    public var fileExtension: String
    /// Offsets where the format keeps sizes and counts, aimed at more often.
    public var hotOffsets: [Int]

    public init(name: String, bytes: [UInt8], fileExtension: String, hotOffsets: [Int] = []) {
        self.name = name
        self.bytes = bytes
        self.fileExtension = fileExtension
        self.hotOffsets = hotOffsets
    }
}

/// What a fuzz target did with one input: accepted it, or refused it with
/// an error of the kind its contract promises (the summary, digits and
/// paths stripped, serves as a cheap stand-in for coverage).
public enum FuzzOutcome: Sendable, Hashable {
    case accepted
    case refused(summary: String)
}

/// A parser under fuzzing: where its inputs come from, how to run one, and
/// which errors are its contract (a typed error whose message names the
/// problem); anything else it throws is a finding, and a trap ends the
/// process with the input left on disk.
public struct FuzzTarget: Sendable {
    /// The name the runner and the `SpeechFuzz` tool take (`model-bin`, `audio`, …).
    public let name: String
    /// The seeds: files under `Tests/FuzzCorpus/<name>/` and generated ones.
    public let seeds: @Sendable () throws -> [FuzzSeed]
    /// Runs the parser on the input written at the URL.
    /// - Returns: `.refused` with a summary when the parser threw an error
    ///   that meets the contract.
    /// - Throws: `FuzzViolation` when it threw anything else.
    public let execute: @Sendable (URL) async throws -> FuzzOutcome

    public init(name: String, seeds: @escaping @Sendable () throws -> [FuzzSeed],
                execute: @escaping @Sendable (URL) async throws -> FuzzOutcome) {
        self.name = name
        self.seeds = seeds
        self.execute = execute
    }

    /// Every target, in the order reports list them.
    public static var all: [FuzzTarget] {
        [modelBin, tokenizerJSON, audio, customLanguageModel, evaluationManifest, suiteJSON]
    }

    /// The target called `name`.
    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// An error that breaks a target's contract: the wrong type, or a message
/// that does not say what is wrong.
public struct FuzzViolation: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

extension FuzzOutcome {
    /// A summary of an error's message with numbers, quoted text and paths
    /// removed, so that "variable x declares 12 bytes" and "… 14 bytes" count
    /// as one behaviour.
    static func summary(_ message: String) -> String {
        var result = ""
        var skipping = false
        for character in message {
            if character == "'" || character == "`" { skipping.toggle(); continue }
            if skipping || character.isNumber || character == "/" { continue }
            result.append(character)
        }
        return String(result.prefix(80))
    }
}

/// Where the seed files live: `Tests/FuzzCorpus` beside this module.
enum FuzzCorpus {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent() // Tests/SpeechFuzzing
        url.deleteLastPathComponent() // Tests
        return url.appendingPathComponent("FuzzCorpus", isDirectory: true)
    }()

    /// The seed files of a target's folder (and its `regressions/`), sorted by name.
    static func seeds(_ folder: String) throws -> [FuzzSeed] {
        let directory = root.appendingPathComponent(folder, isDirectory: true)
        var seeds: [FuzzSeed] = []
        for sub in [directory, directory.appendingPathComponent("regressions", isDirectory: true)] {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: sub.path)) ?? []).sorted()
            for name in names where !name.hasPrefix(".") && name != "regressions" {
                let url = sub.appendingPathComponent(name)
                let bytes = [UInt8](try Data(contentsOf: url))
                seeds.append(FuzzSeed(name: name, bytes: bytes, fileExtension: url.pathExtension))
            }
        }
        return seeds
    }
}
