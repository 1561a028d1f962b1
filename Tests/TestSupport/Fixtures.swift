import Foundation
import SpeechEngine

/// Where tests find the shared corpus and the installed models.
///
/// The corpus lives in `../shared` beside the package and is read in place,
/// never copied into the project.
public enum Fixtures {
    /// The package root (the folder holding Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        // Tests/TestSupport/Fixtures.swift -> package root
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// `../shared` beside the package, or `SPEECHCOMPAT_SHARED` when set.
    public static let sharedRoot: URL = {
        if let path = ProcessInfo.processInfo.environment["SPEECHCOMPAT_SHARED"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }()

    public static var corpusRoot: URL { sharedRoot.appendingPathComponent("corpus") }
    public static var blindRoot: URL { sharedRoot.appendingPathComponent("blind") }

    /// A corpus clip by its manifest path, e.g. `audio/jfk/jfk.wav`.
    public static func corpusClip(_ relativePath: String) -> URL {
        corpusRoot.appendingPathComponent(relativePath)
    }

    /// A fresh temporary directory, removed by the caller when done.
    public static func temporaryDirectory(_ label: String = "speechcompat-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
