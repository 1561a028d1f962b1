import Foundation

/// One audio file of a `MigrationSuite` and its expectations.
public struct SuiteCase: Sendable, Hashable, Codable {
    /// A unique name (JUnit testcase name, golden file name).
    public var id: String
    /// The audio: relative to the suite, absolute, or `corpus:PATH`.
    public var audio: String
    /// The reference transcript, if the case is scored against one.
    public var reference: String?
    /// The WER bound against `reference`; default 0.2.
    public var maximumWordErrorRate: Double?
    /// Whether each path must match its recorded golden.
    public var golden: Bool?
    /// Word-time tolerance against goldens, seconds; default 0.05.
    public var timingToleranceSeconds: Double?
    /// This case's cross-path WER bound (overrides the suite's).
    public var crossPathMaximumWordErrorRate: Double?

    /// Creates a case.
    public init(id: String, audio: String, reference: String? = nil, maximumWordErrorRate: Double? = nil,
                golden: Bool? = nil, timingToleranceSeconds: Double? = nil, crossPathMaximumWordErrorRate: Double? = nil) {
        self.id = id
        self.audio = audio
        self.reference = reference
        self.maximumWordErrorRate = maximumWordErrorRate
        self.golden = golden
        self.timingToleranceSeconds = timingToleranceSeconds
        self.crossPathMaximumWordErrorRate = crossPathMaximumWordErrorRate
    }

    /// The audio file's location for a suite in `folder`.
    public func audioURL(suiteFolder folder: URL) -> URL {
        if audio.hasPrefix("corpus:") {
            let relative = String(audio.dropFirst("corpus:".count))
            return Self.corpusRoot(near: folder).appendingPathComponent(relative)
        }
        if audio.hasPrefix("/") { return URL(fileURLWithPath: audio) }
        return folder.appendingPathComponent(audio).standardizedFileURL
    }

    /// `SPEECHCOMPAT_CORPUS`, else the first `shared/corpus` beside `folder`
    /// or one of its parents, else `../shared/corpus` of the working directory.
    static func corpusRoot(near folder: URL) -> URL {
        if let path = ProcessInfo.processInfo.environment["SPEECHCOMPAT_CORPUS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var candidate = folder.standardizedFileURL
        while candidate.path != "/" {
            let corpus = candidate.appendingPathComponent("shared/corpus")
            if FileManager.default.fileExists(atPath: corpus.appendingPathComponent("manifest.tsv").path) { return corpus }
            candidate.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("../shared/corpus").standardizedFileURL
    }
}
