import Foundation

/// A migration test suite: a folder with a `suite.json` manifest listing
/// audio files and what each must produce, plus recorded goldens under
/// `goldens/`.
///
/// ```json
/// {
///   "name": "corpus-smoke",
///   "locale": "en-US",
///   "paths": ["legacy", "modern"],
///   "crossPathMaximumWordErrorRate": 0.1,
///   "cases": [
///     { "id": "goforward", "audio": "corpus:audio/pocketsphinx/ps_goforward.wav",
///       "reference": "go forward ten meters", "maximumWordErrorRate": 0.25 },
///     { "id": "jfk", "audio": "clips/jfk.wav", "golden": true }
///   ]
/// }
/// ```
/// - `audio` is relative to the suite folder, absolute, or `corpus:PATH`:
///   relative to the shared corpus (`SPEECHCOMPAT_CORPUS`, else the first
///   `shared/corpus` found beside the suite folder or one of its parents).
/// - `reference` + `maximumWordErrorRate` (default 0.2): each path's WER
///   against the reference text must stay within the bound.
/// - `golden: true`: each path's outcome must match
///   `goldens/<id>.<path>.json` (recorded with `speech record-golden`):
///   same words, word times within `timingToleranceSeconds` (default
///   0.05), same event order and error.
/// - With two or more paths, each path's WER against the first must stay
///   within `crossPathMaximumWordErrorRate` (default 0.15; per case too).
/// - WER bounds must be finite numbers from 0 to 1, and
///   `timingToleranceSeconds` from 0 to 10; unknown keys are refused (a
///   misspelt bound would silently fall back to its default).
/// - Every path must resolve (through symbolic links and `..`) inside the
///   suite folder: audio paths, and the goldens that case ids name
///   (`goldens/<id>.<path>.json`); `corpus:` audio inside the corpus root.
///   ``allowsPathsOutsideSuite`` (`--allow-outside-suite`) lifts this.
/// - Errors name the file, line and key and say how to fix the value.
public struct MigrationSuite: Sendable, Hashable, Codable {
    /// The suite's name (JUnit testsuite name).
    public var name: String
    /// The locale of every case (BCP-47); default en-US.
    public var locale: String?
    /// Whether transcripts keep punctuation; default false.
    public var addsPunctuation: Bool?
    /// The paths every case runs, first is the baseline; default legacy, modern.
    public var paths: [RecognitionPath]?
    /// The default cross-path WER bound.
    public var crossPathMaximumWordErrorRate: Double?
    /// The cases, run in order.
    public var cases: [SuiteCase]
    /// The suite folder (set when loaded, not part of the manifest).
    public var folder: URL?
    /// Whether case ids, audio and golden paths may resolve outside the
    /// suite folder (`--allow-outside-suite`; not part of the manifest).
    /// Off by default: a suite from an untrusted source then cannot make the
    /// tools read or write anywhere else.
    public var allowsPathsOutsideSuite = false

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, locale, addsPunctuation, paths, crossPathMaximumWordErrorRate, cases
    }

    /// The keys a manifest may hold at its top level.
    static let manifestKeys = CodingKeys.allCases.map(\.rawValue)

    /// Creates a suite in memory.
    public init(name: String, folder: URL, locale: String? = nil, paths: [RecognitionPath]? = nil,
                crossPathMaximumWordErrorRate: Double? = nil, cases: [SuiteCase],
                allowsPathsOutsideSuite: Bool = false) {
        self.name = name
        self.folder = folder
        self.locale = locale
        self.paths = paths
        self.crossPathMaximumWordErrorRate = crossPathMaximumWordErrorRate
        self.cases = cases
        self.allowsPathsOutsideSuite = allowsPathsOutsideSuite
    }

    /// Loads `suite.json` from a suite folder (or the manifest file itself)
    /// and checks it: known keys only, bounds in range, unique ids, and
    /// every path inside the suite unless `allowsPathsOutsideSuite`.
    /// - Throws: `MigrationError`: `.invalidSuite` naming the line, the key
    ///   and the fix; `.pathOutsideSuite` naming the key and the path.
    public init(contentsOf url: URL, allowsPathsOutsideSuite: Bool = false) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw MigrationError(.invalidSuite, "No suite at \(url.path): give a folder holding suite.json.")
        }
        let manifest = isFolder.boolValue ? url.appendingPathComponent("suite.json") : url
        // A pipe or device would block or never end: only a regular file is read.
        if FileManager.default.fileExists(atPath: manifest.path), !SuitePaths.isRegularFile(manifest.path) {
            throw MigrationError(.invalidSuite, "The suite manifest \(manifest.path) is not a regular file (a pipe or "
                                 + "device?): give a folder holding a suite.json file.")
        }
        let data: Data
        do {
            data = try Data(contentsOf: manifest)
        } catch {
            throw MigrationError(.invalidSuite, "The suite manifest \(manifest.path) cannot be read.", underlying: error)
        }
        try Self.checkKeys(manifest: manifest, data: data)
        self = try SuiteJSONDecoding.decode(MigrationSuite.self, from: data, file: manifest, code: .invalidSuite,
                                            hints: Self.keyHints, fix: Self.manifestFix)
        folder = manifest.deletingLastPathComponent()
        self.allowsPathsOutsideSuite = allowsPathsOutsideSuite
        try validate(manifest: manifest, data: data)
    }

    /// The paths to run, baseline first.
    public var effectivePaths: [RecognitionPath] { (paths?.isEmpty ?? true) ? [.legacy, .modern] : paths! }

    /// The golden file of a case for a path.
    public func goldenURL(caseID: String, path: RecognitionPath) -> URL {
        (folder ?? URL(fileURLWithPath: ".")).appendingPathComponent("goldens")
            .appendingPathComponent("\(caseID).\(path.rawValue).json")
    }
}
