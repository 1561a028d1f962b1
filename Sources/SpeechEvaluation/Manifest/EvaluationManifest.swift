import Foundation

/// A tab-separated list of clips with reference transcripts, in the format
/// of `../shared/corpus/manifest.tsv`.
///
/// The first line names the columns; `id`, `set`, `language`, `path` and
/// `reference_text` are required, `duration_s` is optional and other
/// columns are ignored. Paths are relative to the manifest's folder. A field
/// wrapped in double quotes is unquoted (`""` inside stands for one `"`), as
/// spreadsheet exports write them. Blank lines and lines starting with `#`
/// are skipped.
public struct EvaluationManifest: Sendable {
    /// The clips, in file order.
    public var entries: [ManifestEntry]
    /// The manifest file.
    public var url: URL

    /// Creates a manifest from entries already in memory.
    public init(entries: [ManifestEntry], url: URL) {
        self.entries = entries
        self.url = url
    }

    /// Reads and parses the manifest at `url`.
    /// - Throws: ``ManifestError``.
    public init(contentsOf url: URL) throws {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ManifestError(.unreadable, path: url.path,
                                "cannot read the manifest (\(error.localizedDescription)); check the path.")
        }
        try self.init(parsing: text, url: url)
    }

    /// Parses manifest `text`; relative paths resolve against `url`'s folder.
    /// - Throws: ``ManifestError``.
    public init(parsing text: String, url: URL) throws {
        self.url = url
        let folder = url.deletingLastPathComponent()
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
            .map { (number: $0.offset + 1, text: String($0.element)) }
            .filter { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty && !$0.text.hasPrefix("#") }
        guard !lines.isEmpty else {
            throw ManifestError(.missingColumn, path: url.path, "the manifest is empty; it needs a header line.")
        }
        let header = lines.removeFirst()
        let columns = Self.fields(of: header.text).map { $0.lowercased() }
        func column(_ name: String) throws -> Int {
            guard let index = columns.firstIndex(of: name) else {
                throw ManifestError(.missingColumn, path: url.path, line: header.number,
                                    "the header has no '\(name)' column (columns: \(columns.joined(separator: ", "))).")
            }
            return index
        }
        let idColumn = try column("id"), setColumn = try column("set")
        let languageColumn = try column("language"), pathColumn = try column("path")
        let referenceColumn = try column("reference_text")
        let durationColumn = columns.firstIndex(of: "duration_s")
        let required = [idColumn, setColumn, languageColumn, pathColumn, referenceColumn].max() ?? 0

        var seen: Set<String> = []
        entries = try lines.map { line in
            let fields = Self.fields(of: line.text)
            guard fields.count > required else {
                throw ManifestError(.malformedRow, path: url.path, line: line.number,
                                    "expected at least \(required + 1) tab-separated fields, found \(fields.count).")
            }
            let id = fields[idColumn]
            guard !id.isEmpty, seen.insert(id).inserted else {
                throw ManifestError(id.isEmpty ? .malformedRow : .duplicateID, path: url.path, line: line.number,
                                    id.isEmpty ? "the id is empty." : "the id '\(id)' appears twice.")
            }
            var duration: Double?
            if let durationColumn, durationColumn < fields.count, !fields[durationColumn].isEmpty {
                guard let value = Double(fields[durationColumn]), value >= 0 else {
                    throw ManifestError(.malformedRow, path: url.path, line: line.number,
                                        "duration_s '\(fields[durationColumn])' is not a number of seconds.")
                }
                duration = value
            }
            let path = fields[pathColumn]
            let audioURL = path.hasPrefix("/") ? URL(fileURLWithPath: path)
                : folder.appendingPathComponent(path)
            return ManifestEntry(id: id, set: fields[setColumn], languageTag: fields[languageColumn],
                                 durationSeconds: duration, audioURL: audioURL,
                                 referenceText: fields[referenceColumn])
        }
    }

    /// The names of the sets, in order of first appearance.
    public var setNames: [String] {
        var seen: Set<String> = []
        return entries.map(\.set).filter { seen.insert($0).inserted }
    }

    /// The entries of the named sets (all entries when `names` is empty).
    public func entries(inSets names: [String]) -> [ManifestEntry] {
        names.isEmpty ? entries : entries.filter { names.contains($0.set) }
    }

    /// Splits a line on tabs and unquotes each field.
    static func fields(of line: String) -> [String] {
        line.split(separator: "\t", omittingEmptySubsequences: false).map { field in
            let trimmed = field.trimmingCharacters(in: .whitespaces)
            guard trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") else { return trimmed }
            return String(trimmed.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
        }
    }
}

extension EvaluationManifest {
    /// The entries of the named sets (all when `names` is empty) that belong
    /// to `shard`, in manifest order; see ``Shard`` for the assignment.
    public func entries(inSets names: [String], shard: Shard) -> [ManifestEntry] {
        shard.select(entries(inSets: names), id: \.id)
    }
}
