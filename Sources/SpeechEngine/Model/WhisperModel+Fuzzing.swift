import Foundation

/// Entry points for the fuzzers (`SpeechFuzzing`, `Benchmarks/Fuzz`): each
/// runs one parser of a model folder on its own, exactly as loading does,
/// so a mutated file can be checked in milliseconds without the rest of a
/// model around it. Not API: reachable only through `@_spi(Fuzzing) import`.
extension WhisperModel {
    /// Parses and checks a `model.bin` as `init(directory:)` does, returning its sizes.
    /// - Throws: `EngineError` `.modelNotFound` or `.invalidModelFile`.
    @_spi(Fuzzing) public static func checkModelFile(at url: URL) throws -> ModelDimensions {
        try readWeights(url).dimensions
    }

    /// Parses a `config.json` and checks it against a model's sizes, as loading does.
    /// - Throws: `EngineError` `.modelNotFound` or `.invalidModelFile`.
    @_spi(Fuzzing) public static func checkConfig(at url: URL, dimensions: ModelDimensions) throws {
        try ModelConfig(contentsOf: url).validate(against: dimensions, url: url)
    }
}
