/// Why a manifest or hypotheses file could not be read.
public struct ManifestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem.
    public enum Code: String, Hashable, Sendable {
        /// The file does not exist or cannot be read.
        case unreadable
        /// The header lacks a required column.
        case missingColumn
        /// A row has fewer fields than the header or a malformed value.
        case malformedRow
        /// Two rows share one id.
        case duplicateID
    }

    /// The kind of problem.
    public var code: Code
    /// The file concerned.
    public var path: String
    /// The 1-based line, when the problem is on one line.
    public var line: Int?
    /// What is wrong and how to fix it.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, path: String, line: Int? = nil, _ message: String) {
        self.code = code
        self.path = path
        self.line = line
        self.message = message
    }

    /// "manifest.tsv:12: message", or "manifest.tsv: message".
    public var description: String {
        if let line { return "\(path):\(line): \(message)" }
        return "\(path): \(message)"
    }
}
