/// How the engine stores its matrix weights and computes with them.
///
/// `int8Weights` stores every linear layer's weights and the token
/// embeddings as int8 (one scale per output row, quantized as the model is
/// read) but keeps the activations float: the weights are dequantized as the
/// kernels read them, so int8's memory comes with only the weights' own
/// rounding (Benchmarks/RESULTS.md, "int8 weights with float activations").
///
/// `int8` quantizes every linear layer's weights and the token embeddings at
/// load, one scale per output row, and multiplies through integer kernels:
/// half the peak memory (186 MB against 384 MB on a 2-minute file) and about
/// 0.55x the CPU time. `float32` keeps the checkpoint's values as float and
/// runs OpenBLAS sgemm, the reference behaviour, and is the default for now:
/// int8 costs 0.7 WER points on the English corpus (14.30% against 13.59%,
/// Benchmarks/RESULTS.md), and the house rule is that a faster default may
/// not be a less accurate one.
/// Convolutions, positions, norms and attention run in float either way.
public enum ComputeType: String, Sendable, Hashable, CaseIterable {
    /// 8-bit weights and integer kernels (`--compute-type int8`).
    case int8
    /// Float weights and sgemm.
    case float32
    /// 8-bit weights, float activations and sums (`--compute-type int8-weights`).
    case int8Weights = "int8-weights"

    /// How the quantized matrices multiply, or nil when weights stay float.
    var quantizedArithmetic: QuantizedMatrix.Arithmetic? {
        switch self {
        case .int8: .integer
        case .int8Weights: .float
        case .float32: nil
        }
    }

    /// What models load with unless told otherwise (float32 until int8
    /// keeps the corpus WER; see above).
    public static let `default`: ComputeType = .float32
}
