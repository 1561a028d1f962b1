import Foundation

/// One way of running recognition on audio: a face used natively, or an
/// adapter that puts one face's shape over the other.
public enum RecognitionPath: String, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `SFSpeechRecognizer` with a URL request and a delegate.
    case legacy
    /// `SpeechAnalyzer` with a `SpeechTranscriber` over the file.
    case modern
    /// The legacy face's code, the modern pipeline underneath (`useModernPipeline()`).
    case legacyOverModern = "legacy-over-modern"
    /// The modern face's code, legacy tasks underneath (`useLegacyPipeline(configuredLike:)`).
    case modernOverLegacy = "modern-over-legacy"
    /// The engine's batch decoding of the file (`speech transcribe`), no
    /// face: what the faces should deliver on a file.
    case batch

    /// The path's name as used on the command line and in reports.
    public var description: String { rawValue }

    /// The paths named in a comma-separated list (`legacy,modern`).
    /// - Throws: `MigrationError` (`.invalidSuite`) for an unknown name.
    public static func parseList(_ text: String) throws -> [RecognitionPath] {
        try text.split(separator: ",").map { name in
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let path = RecognitionPath(rawValue: trimmed) else {
                throw MigrationError(.invalidSuite, "Unknown recognition path '\(trimmed)'. Use one of: "
                                     + allCases.map(\.rawValue).joined(separator: ", ") + ".")
            }
            return path
        }
    }
}
