import Foundation

/// The same audio through several recognition paths: each path's outcome,
/// and each path compared with the first (the baseline, normally legacy).
public struct ComparisonReport: Sendable, Hashable, Codable {
    /// The audio file.
    public var file: String
    /// One outcome per path, baseline first.
    public var outcomes: [RecognitionOutcome]
    /// Every other outcome against the baseline.
    public var comparisons: [OutcomeComparison]

    /// Builds the report, comparing every outcome after the first with the first.
    public init(file: String, outcomes: [RecognitionOutcome], languageTag: String = "en") {
        self.file = file
        self.outcomes = outcomes
        guard let baseline = outcomes.first else {
            comparisons = []
            return
        }
        comparisons = outcomes.dropFirst().map {
            OutcomeComparison(baseline: baseline, other: $0, languageTag: languageTag)
        }
    }

    /// The largest WER of any path against the baseline.
    public var largestWordErrorRate: Double {
        comparisons.map(\.wordErrorRate).max() ?? 0
    }

    /// Reports as pretty-printed JSON with sorted keys.
    public static func json(_ reports: [ComparisonReport]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(reports)
    }
}
