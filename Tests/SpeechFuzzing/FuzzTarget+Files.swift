import Foundation
import Speech
import SpeechEngine
import SpeechEvaluation
import SpeechMigration

extension FuzzTarget {
    /// The WAV/FLAC/OGG header and data path through `AudioDecoder`
    /// (libsndfile, the truncation checks, downmix, resampling, sanitizing).
    /// Contract: samples that are all finite and within [-1, 1], or
    /// `EngineError` `.unreadableAudio`/`.unsupportedAudioFormat` naming the file.
    public static let audio = FuzzTarget(name: "audio", seeds: { try FuzzCorpus.seeds("audio") }, execute: { url in
        do {
            let samples = try AudioDecoder.decode(contentsOf: url)
            if SampleSanitizer.needsRepair(samples) {
                throw FuzzViolation("decoded samples hold NaN, Inf or values outside [-1, 1]")
            }
            return .accepted
        } catch let error as EngineError {
            try expect(error, codes: [.unreadableAudio, .unsupportedAudioFormat], mentions: [url.lastPathComponent])
            return .refused(summary: FuzzOutcome.summary(error.message))
        }
    })

    /// Custom language model training data, through the public
    /// `SFSpeechLanguageModel.prepareCustomLanguageModel` (which reads it
    /// with `CustomLanguageModelFile` and writes the prepared files).
    /// Contract: success, or `SFSpeechError(.malformedSupplementalModel)`
    /// whose failure reason names the file.
    public static let customLanguageModel = FuzzTarget(name: "custom-lm", seeds: { try FuzzCorpus.seeds("customlm") },
                                                      execute: { url in
        let folder = url.deletingLastPathComponent()
        let configuration = SFSpeechLanguageModel.Configuration(
            languageModel: folder.appendingPathComponent("prepared.lm"),
            vocabulary: folder.appendingPathComponent("prepared.vocab"))
        do {
            try await SFSpeechLanguageModel.prepareCustomLanguageModel(for: url, configuration: configuration,
                                                                       ignoresCache: true)
            return .accepted
        } catch let error as SFSpeechError {
            guard error.code == .malformedSupplementalModel else {
                throw FuzzViolation("unexpected SFSpeechError code \(error.code.rawValue): \(error)")
            }
            let reason = error.userInfo[NSLocalizedFailureReasonErrorKey] as? String ?? ""
            guard reason.contains(url.path) else { throw FuzzViolation("failure reason does not name the file: \(reason)") }
            return .refused(summary: FuzzOutcome.summary(reason))
        }
    })

    /// The evaluation manifest parser (`EvaluationManifest`).
    /// Contract: success, or a `ManifestError` with a message.
    public static let evaluationManifest = FuzzTarget(name: "manifest", seeds: { try FuzzCorpus.seeds("manifest") },
                                                     execute: { url in
        do {
            let manifest = try EvaluationManifest(contentsOf: url)
            _ = manifest.entries(inSets: ["dev"])
            return .accepted
        } catch let error as ManifestError {
            guard !error.message.isEmpty else { throw FuzzViolation("ManifestError without a message") }
            return .refused(summary: "\(error.code): " + FuzzOutcome.summary(error.message))
        }
    })

    /// `suite.json` parsing and validation (`MigrationSuite(contentsOf:)`).
    /// Contract: success, or `MigrationError(.invalidSuite)`.
    public static let suiteJSON = FuzzTarget(name: "suite-json", seeds: { try FuzzCorpus.seeds("suite") }, execute: { url in
        let manifest = url.deletingLastPathComponent().appendingPathComponent("suite.json")
        try? FileManager.default.removeItem(at: manifest)
        try FileManager.default.moveItem(at: url, to: manifest)
        do {
            let suite = try MigrationSuite(contentsOf: manifest.deletingLastPathComponent())
            _ = suite.effectivePaths
            return .accepted
        } catch let error as MigrationError {
            guard error.code == .invalidSuite else { throw FuzzViolation("unexpected MigrationError code \(error.code)") }
            return .refused(summary: FuzzOutcome.summary(error.message))
        }
    })
}
