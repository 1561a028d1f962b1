import Foundation

/// Reads a golden outcome (`goldens/<id>.<path>.json`, written by
/// `speech record-golden`) for a suite case, with errors that name the file,
/// the line and the key, and say how to fix it: re-record, or correct the
/// value. A missing or malformed golden fails its case's check; the suite
/// run goes on with the other cases.
public enum GoldenFile {
    /// How to fix each key of a recorded outcome.
    static let keyHints: [String: String] = [
        "path": "It names the recognition path: "
            + RecognitionPath.allCases.map(\.rawValue).joined(separator: ", ") + ".",
        "transcript": "Give the transcript as a string, or re-record the golden.",
        "words": "Give a list of {text, startSeconds, durationSeconds, confidence} objects, or re-record the golden.",
        "text": "Give the word as a string, or re-record the golden.",
        "startSeconds": "Give seconds from the start of the audio, a number of at least 0, or re-record the golden.",
        "durationSeconds": "Give the word's length in seconds, a number of at least 0, or re-record the golden.",
        "confidence": "Give a number from 0 to 1 (or leave it out), or re-record the golden.",
        "events": "Give a list of event names as strings, or re-record the golden.",
        "alternatives": "Give a list of transcripts as strings, or re-record the golden.",
        "error": "Give the error as a string (or leave it out), or re-record the golden.",
    ]

    /// Reads the golden at `url`, which must hold the outcome of `path`
    /// (any path when nil).
    /// - Parameter suite: the suite folder, for the re-record command in messages.
    /// - Throws: `MigrationError` (`.invalidGolden`) when the file is missing,
    ///   unreadable, not a recorded outcome, for another path, or holds a
    ///   negative or non-finite time.
    public static func read(_ url: URL, path: RecognitionPath?, suite: URL? = nil) throws -> RecognitionOutcome {
        let record = "speech record-golden \(suite?.path ?? "<suite>")"
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw MigrationError(.invalidGolden, "The golden \(url.path) does not exist: record it with `\(record)`.",
                                 value: url.path)
        }
        guard !isFolder.boolValue else {
            throw MigrationError(.invalidGolden, "The golden \(url.path) is a folder, not a file: remove it and "
                                 + "record the golden with `\(record)`.", value: url.path)
        }
        // A pipe or device would block the run or never end: only regular files are read.
        guard SuitePaths.isRegularFile(url.path) else {
            throw MigrationError(.invalidGolden, "The golden \(url.path) is not a regular file (a pipe or device?): "
                                 + "remove it and record the golden with `\(record)`.", value: url.path)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw MigrationError(.invalidGolden, "The golden \(url.path) cannot be read; check its permissions or "
                                 + "record it again with `\(record)`.", underlying: error, value: url.path)
        }
        let outcome = try SuiteJSONDecoding.decode(RecognitionOutcome.self, from: data, file: url, code: .invalidGolden,
                                                   hints: keyHints, fix: "Record it again with `\(record)`.")
        if let path, outcome.path != path {
            throw MigrationError(.invalidGolden, "\(url.path) key path: the golden holds the outcome of path "
                                 + "\(outcome.path.rawValue), but this file is for \(path.rawValue). Record it again "
                                 + "with `\(record)`.", key: "path", value: outcome.path.rawValue)
        }
        for (index, word) in outcome.words.enumerated() {
            let values = [("startSeconds", word.startSeconds), ("durationSeconds", word.durationSeconds)]
            for (key, value) in values where !(value.isFinite && value >= 0) {
                throw outOfRange(url, data, index, key, value, "must be a finite number of seconds, at least 0", record)
            }
            if let confidence = word.confidence, !(confidence.isFinite && (0...1).contains(confidence)) {
                throw outOfRange(url, data, index, "confidence", confidence, "must be a number from 0 to 1", record)
            }
        }
        return outcome
    }

    private static func outOfRange(_ url: URL, _ data: Data, _ index: Int, _ key: String, _ value: Double,
                                   _ rule: String, _ record: String) -> MigrationError {
        let path: [JSONLocator.Component] = [.key("words"), .index(index), .key(key)]
        let line = JSONLocator.location(of: path, in: data)?.line
        let keyPath = JSONLocator.keyPath(path)
        return MigrationError(.invalidGolden, "\(url.path)\(line.map { " line \($0)," } ?? "") key \(keyPath): "
                              + "\(value) \(rule). Record it again with `\(record)`.", key: keyPath, value: "\(value)")
    }
}
