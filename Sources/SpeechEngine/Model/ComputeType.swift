/// How the engine stores its matrix weights and computes with them.
///
/// `int8` (the default, as CTranslate2 recommends on CPUs) quantizes every
/// linear layer's weights and the token embeddings at load, one scale per
/// output row, and multiplies through integer kernels: a quarter of the
/// weight memory and faster matrix work, with the corpus WER kept
/// (Benchmarks/RESULTS.md). `float32` keeps the checkpoint's values as float
/// and runs OpenBLAS sgemm, the exact reference behaviour.
/// Convolutions, positions, norms and attention run in float either way.
public enum ComputeType: String, Sendable, Hashable, CaseIterable {
    /// 8-bit weights and integer kernels.
    case int8
    /// Float weights and sgemm.
    case float32

    /// What models load with unless told otherwise.
    public static let `default`: ComputeType = .int8
}
