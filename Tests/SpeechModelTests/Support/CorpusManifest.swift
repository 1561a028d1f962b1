import Foundation
import SpeechEvaluation
import TestSupport

/// The shared dev corpus, read through the evaluation module's manifest reader.
enum CorpusManifest {
    static func entries(set: String? = nil) throws -> [ManifestEntry] {
        let manifest = try EvaluationManifest(contentsOf: Fixtures.corpusRoot.appendingPathComponent("manifest.tsv"))
        return set.map { manifest.entries(inSets: [$0]) } ?? manifest.entries
    }
}
