import Foundation

/// A loaded Whisper checkpoint: weights, sizes, tokenizer and decoding
/// config. Immutable after loading and shared by every request; per-request
/// state (KV caches, beams, prompt history) lives in the decoding session.
public final class WhisperModel: Sendable {
    /// The folder the model was loaded from.
    public let directory: URL
    public let dimensions: ModelDimensions
    public let tokenizer: BPETokenizer
    /// How the matrix weights are held and multiplied (chosen at load).
    public let computeType: ComputeType
    let encoder: AudioEncoder
    let decoder: TextDecoder
    let config: ModelConfig

    /// Loads `model.bin`, `config.json` and the tokenizer from `directory`.
    /// A folder holding a known model's files (by `model.bin`'s size) is
    /// checked against that model's SHA-256 pins, once per change of the
    /// files (`VerificationStamp`); every folder is checked for structure:
    /// sizes, shapes, finite weights, ids in range.
    /// - Parameter computeType: int8 weights and kernels, or float32 (the default; see `ComputeType`).
    /// - Throws: `EngineError(.modelNotFound)` when files are missing,
    ///   `EngineError(.invalidModelFile)` when they are corrupt.
    public convenience init(directory: URL, computeType: ComputeType = .default) throws {
        try self.init(directory: directory, computeType: computeType, screensLogits: true)
    }

    /// - Parameter screensLogits: whether the logits go through an int8
    ///   screen first where the embeddings are half (`LogitProjection`);
    ///   off, every logit is the half product's (tests compare the two).
    init(directory: URL, computeType: ComputeType, screensLogits: Bool) throws {
        self.directory = directory
        self.computeType = computeType
        // An installed model corrupted since its last check fails here, by hash,
        // with the install command as the fix (cheap when nothing changed).
        try AssetStore.verifyPinnedContents(of: directory)
        let weights = try Self.readWeights(directory.appendingPathComponent("model.bin"), computeType: computeType)
        dimensions = weights.dimensions
        let configURL = directory.appendingPathComponent("config.json")
        config = try ModelConfig(contentsOf: configURL)
        try config.validate(against: dimensions, url: configURL)
        tokenizer = try BPETokenizer(directory: directory, isMultilingual: dimensions.isMultilingual)
        encoder = AudioEncoder(weights: weights.encoder, dimensions: dimensions)
        decoder = TextDecoder(weights: weights.decoder, dimensions: dimensions,
                              crossAttentionPrecision: computeType.crossAttentionPrecision,
                              projection: LogitProjection(embeddings: weights.decoder.embeddings,
                                                          exactFrom: tokenizer.specialTokens.timestampBegin,
                                                          screened: screensLogits))
    }

    /// The checked contents of a `model.bin`.
    struct Weights {
        var dimensions: ModelDimensions
        var encoder: EncoderWeights
        var decoder: DecoderWeights
    }

    /// Reads a `model.bin` and checks it is a Whisper checkpoint of
    /// consistent, supported sizes with every weight finite.
    /// - Throws: `EngineError(.modelNotFound)` when the file is missing,
    ///   `EngineError(.invalidModelFile)` naming what is wrong otherwise.
    static func readWeights(_ url: URL, computeType: ComputeType = .float32) throws -> Weights {
        var file = try ModelFile(contentsOf: url, storing: { name, shape in
            if ModelFile.isWeightMatrix(name, shape: shape) { return computeType.weightForm(ofTensor: name) }
            return ModelFile.isHalfTable(name) && computeType.weightForm != nil ? .half : nil
        })
        guard file.specName == "WhisperSpec" else {
            throw EngineError(.invalidModelFile,
                              "\(file.url.path) holds a \(file.specName), not a Whisper model. Reinstall with `speech assets install`.")
        }
        let dimensions = try file.dimensions()
        return Weights(dimensions: dimensions, encoder: try file.encoderWeights(dimensions),
                       decoder: try file.decoderWeights(dimensions))
    }

    /// Loads an installed model from an asset store.
    /// - Throws: `EngineError(.modelNotFound)` naming `speech assets install <name>` when it is not installed.
    public convenience init(_ name: ModelName, store: AssetStore = .default, computeType: ComputeType = .default) throws {
        try self.init(directory: try store.requireInstalled(name), computeType: computeType)
    }

    /// Whether the checkpoint knows the 99 languages (else English only).
    public var isMultilingual: Bool { dimensions.isMultilingual }
}
