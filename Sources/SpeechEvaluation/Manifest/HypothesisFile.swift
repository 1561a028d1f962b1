import Foundation

/// A file of recognition results, one `id<TAB>hypothesis` line per clip:
/// what `speech eval --hypotheses` writes and `speech eval --score` reads,
/// and what `Benchmarks/faster_whisper/eval.py` writes, so both engines are
/// scored by the same code.
public struct HypothesisFile: Sendable, Hashable {
    /// Hypotheses by clip id.
    public var hypotheses: [String: String]
    /// Clip ids in file order.
    public var ids: [String]

    /// Creates an empty file.
    public init() {
        hypotheses = [:]
        ids = []
    }

    /// Reads the file at `url`. A line without a tab is a clip with an empty
    /// hypothesis.
    /// - Throws: ``ManifestError`` if the file cannot be read or repeats an id.
    public init(contentsOf url: URL) throws {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ManifestError(.unreadable, path: url.path,
                                "cannot read the hypotheses file (\(error.localizedDescription)).")
        }
        self.init()
        for (offset, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            let id = String(parts[0]).trimmingCharacters(in: .whitespaces)
            guard hypotheses[id] == nil else {
                throw ManifestError(.duplicateID, path: url.path, line: offset + 1, "the id '\(id)' appears twice.")
            }
            append(id: id, hypothesis: parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// Adds (or replaces) a clip's hypothesis.
    public mutating func append(id: String, hypothesis: String) {
        if hypotheses[id] == nil { ids.append(id) }
        hypotheses[id] = hypothesis
    }

    /// One line for one clip, with tabs and line breaks in the hypothesis
    /// turned into spaces so that the line stays one record.
    public static func line(id: String, hypothesis: String) -> String {
        let flat = hypothesis.map { $0 == "\t" || $0.isNewline ? " " : $0 }
        return "\(id)\t\(String(flat).trimmingCharacters(in: .whitespaces))\n"
    }

    /// The whole file as text.
    public var text: String {
        ids.map { Self.line(id: $0, hypothesis: hypotheses[$0] ?? "") }.joined()
    }

    /// Writes the file atomically.
    public func write(to url: URL) throws {
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
