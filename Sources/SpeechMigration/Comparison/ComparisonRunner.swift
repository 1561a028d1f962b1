import Foundation

/// Runs audio files through several recognition paths and compares them:
/// the logic behind `speech compare`.
///
/// Paths run one after another (the engine is CPU-bound), in the order
/// given; the first is the baseline the others are compared with.
public struct ComparisonRunner: Sendable {
    /// How each path recognizes (locale, punctuation, contextual strings).
    public var runner: PathRunner
    /// The paths, baseline first.
    public var paths: [RecognitionPath]

    /// Creates a runner; by default legacy, modern, both adapters and batch.
    public init(runner: PathRunner = PathRunner(), paths: [RecognitionPath] = RecognitionPath.allCases) {
        self.runner = runner
        self.paths = paths.isEmpty ? RecognitionPath.allCases : paths
    }

    /// Compares the paths on one file.
    /// - Throws: `MigrationError` when the file cannot be read or the locale
    ///   is not supported (recognition errors are part of the outcomes).
    public func compare(_ url: URL) async throws -> ComparisonReport {
        var outcomes: [RecognitionOutcome] = []
        for path in paths {
            outcomes.append(try await runner.run(path, on: url))
        }
        let tag = runner.locale.identifier(.bcp47)
        return ComparisonReport(file: url.lastPathComponent, outcomes: outcomes, languageTag: tag)
    }
}
