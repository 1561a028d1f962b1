import Foundation

/// How the engine stores its matrix weights and computes with them.
///
/// Every linear layer's weights and the token embeddings take the form the
/// type names; convolutions, positions, norms and attention run in float32
/// whatever it is. Every type but `float32` also keeps the decoder's
/// cross-attention keys and values (one 30 s window's, 37 MB in float for
/// whisper-base) in half precision, still multiplied in float32
/// (`CrossAttentionCache`), and the types whose embeddings are half screen
/// the logits of greedy and beam steps through an int8 copy of them, exact
/// wherever a value can decide a token (`LogitProjection`: the same
/// transcripts, a third of the projection's time, 25 MB more peak
/// memory for whisper-base). Figures in Benchmarks/RESULTS.md ("Weights in half
/// precision, and in int8 with float activations"; "The encoder in int8";
/// "Screened logits").
///
/// - `float32`: the weights widened to float, sgemm: faster-whisper's
///   `float32`, the reference.
/// - `float16Weights`: the checkpoint's half-precision weights kept as they
///   are (Whisper's are float16 on disk, so they are exactly float32's
///   values) in half float32's memory, multiplied in float32: the same
///   transcripts up to the order of the sums.
/// - `int8Encoder` (opt-in, see `default`): the encoder's layers as `int8`, the
///   decoder's as `float16Weights`. The encoder is most of a file's time and
///   its 1,500 positions are all read at once, so the rounding of its
///   weights and activations averages out; the decoder picks one token at a
///   time from its own last step, so a rounding there can change a word.
///   Measured on the corpus and two long files (1,430 words): 207 and 215
///   errors (two orders of float sums) against float16Weights' 214, in 11–13%
///   less time on a 2-minute file (15–25% before the AVX-512 float tiles).
/// - `int8EncoderFeedForward` (opt-in): only the encoder's feed-forward
///   layers as `int8` (two thirds of its matrix arithmetic), everything else
///   as `float16Weights`. Measured layer by layer (2026-12-06), the encoder's
///   attention projections and the decoder's layers are where int8 costs
///   words; the encoder's feed-forward layers alone left the corpus at the
///   default's error count (138 of 937 words, 4 of 75 transcripts moved),
///   for 9–19% less encoder time (6–12% less wall time) on a 2-minute file.
/// - `int8Mixed` (opt-in): int8 wherever it leaves only the weights'
///   rounding: the encoder's feed-forward layers as in
///   `int8EncoderFeedForward`, every decoder layer with its activations
///   quantized in two int8 levels (`QuantizedMatrix.Arithmetic.integerWithResidual`:
///   the row and what its rounding left, so the one error a row's outputs
///   would share is gone; 2.4x the half tiles' speed at a beam-5 batch's 40
///   rows), and the cross-attention cache in int8 (keys by channel, packed
///   so that a step's scores are one integer product with its queries in
///   two levels; values by position: `CrossAttentionCache`); the encoder's
///   attention and the embeddings stay half. Corpus English 13.59% / all
///   14.73%, the default's 13.47% / 14.73% (one hesitation clip apart;
///   faster-whisper's English is 14.06–15.26%), in about 0.7x the default's
///   wall time on a 2-minute file: 0.64–0.68x faster-whisper int8
///   batched's greedy and 0.74–0.76x its beam 5, with 35–45 MB less memory
///   (2026-12-07, two paired runs, Benchmarks/RESULTS.md).
///   Opt-in by the house rule below: the default's transcripts are float32's.
/// - `int8Weights`: weights quantized to int8 at load (one scale per output
///   row), activations and sums float: a quarter of float32's memory, at the
///   cost of the weights' rounding.
/// - `int8`: int8 weights and activations quantized per row, integer kernels
///   (CTranslate2's `int8`): the fastest, the least accurate.
///
/// The house rule is that a faster default may not be a less accurate one:
/// `int8Weights` and `int8` cost about half a point of English WER on the
/// corpus, so they are opt-in.
public enum ComputeType: String, Sendable, Hashable, CaseIterable {
    /// Float weights and sgemm (`--compute-type float32`).
    case float32
    /// Half-precision weights, float32 arithmetic (`--compute-type float16-weights`).
    case float16Weights = "float16-weights"
    /// 8-bit weights, float activations and sums (`--compute-type int8-weights`).
    case int8Weights = "int8-weights"
    /// 8-bit weights and integer kernels (`--compute-type int8`).
    case int8
    /// The encoder's layers as `int8`, the decoder's as `float16Weights`
    /// (`--compute-type int8-encoder`).
    case int8Encoder = "int8-encoder"
    /// The encoder's feed-forward layers as `int8`, everything else as
    /// `float16Weights` (`--compute-type int8-encoder-ffn`).
    case int8EncoderFeedForward = "int8-encoder-ffn"
    /// The encoder's feed-forward layers as `int8`, the decoder's layers in
    /// int8 with two-level activations, the rest half (`--compute-type int8-mixed`).
    case int8Mixed = "int8-mixed"

    /// The form a load keeps the decoder's weight matrices in, or nil for float.
    var weightForm: WeightForm? {
        switch self {
        case .float32: nil
        case .float16Weights, .int8Encoder, .int8EncoderFeedForward, .int8Mixed: .half
        case .int8Weights: .int8(.float)
        case .int8: .int8(.integer)
        }
    }

    /// The form a load keeps the weight matrix `tensor` (a `model.bin`
    /// variable name, `encoder/...` or `decoder/...`) in, or nil for float.
    func weightForm(ofTensor tensor: String) -> WeightForm? {
        let isEncoderFeedForward = tensor.hasPrefix("encoder/") && tensor.contains("/ffn/")
        return switch self {
        case .int8Encoder where tensor.hasPrefix("encoder/"): .int8(.integer)
        case .int8EncoderFeedForward where isEncoderFeedForward, .int8Mixed where isEncoderFeedForward: .int8(.integer)
        // The decoder's layers, not its embeddings (the logits' screen keeps them half).
        case .int8Mixed where tensor.hasPrefix("decoder/") && tensor.contains("/linear_"): .int8(.integerWithResidual)
        default: weightForm
        }
    }

    /// How the decoder keeps each window's cross-attention keys and values:
    /// float for the float reference, int8 where the decoder's layers are
    /// int8 (`CrossAttentionCache`: keys by channel and packed, values by position), half otherwise.
    var crossAttentionPrecision: (keys: CrossAttentionCache.Precision, values: CrossAttentionCache.Precision) {
        switch self {
        case .float32: (.float, .float)
        case .int8Mixed: (.int8PerChannel, .int8PerPosition)
        default: (.half, .half)
        }
    }

    /// What models load with unless told otherwise: half weights, float32's
    /// transcripts. `int8Encoder` is within a few words of it in 75–85% of
    /// its time (corpus English 13.47% or 13.95% against 13.47%, 2026-12-05)
    /// but stays opt-in: with it, the JFK comma and the committed text of a
    /// stream depended on chunk sizes (StreamingRecognizerTests), which the
    /// default must not.
    public static let `default`: ComputeType = .float16Weights

    /// What live audio's final results load with unless told otherwise
    /// (`ModelCache.liveComputeType`: the faces' microphone and buffer
    /// streams, also over `speech serve`'s face socket). Recordings, such as
    /// a URL request's file, keep ``default``, so a face gives a file the
    /// transcript `speech transcribe` gives it. Streamed text is not
    /// batch text whatever the type (each utterance is decoded alone, as it
    /// ends), and there `int8Mixed` is not less accurate than ``default``:
    /// `speech eval --stream` on the corpus, English 15.49% both, all 16.44%
    /// against 16.54% (12 of 75 transcripts differ, either way), at 0.71x its
    /// compute, with the final after a stop mid-speech 0.15–0.2 s sooner
    /// (2026-12-07, Benchmarks/RESULTS.md). It passes the chunk-size test
    /// `int8Encoder` failed (StreamingRecognizerModelTests).
    public static let live: ComputeType = .int8Mixed

    /// The environment variable naming the type of models loaded without one
    /// (`ModelCache`: the faces, `speech serve`; the tool's `--compute-type`
    /// default): `SPEECHCOMPAT_COMPUTE_TYPE=int8-mixed` runs client code
    /// written for Apple's API on the faster engine without changing it.
    public static let environmentVariable = "SPEECHCOMPAT_COMPUTE_TYPE"

    /// The type `environment` names in ``environmentVariable``, or
    /// `unset` (``default``, or ``live`` for live audio) when it is unset or empty.
    /// - Throws: `EngineError(.invalidArgument)` listing the types when it names none.
    public static func configured(environment: [String: String] = ProcessInfo.processInfo.environment,
                                  unset: ComputeType = .default) throws -> ComputeType {
        guard let value = environment[environmentVariable], !value.isEmpty else { return unset }
        guard let type = ComputeType(rawValue: value) else {
            throw EngineError(.invalidArgument,
                              "\(environmentVariable)=\(value) names no compute type; set it to one of \(allCases.map(\.rawValue).joined(separator: ", ")), or unset it for \(ComputeType.default.rawValue).")
        }
        return type
    }
}

/// How a load keeps a linear layer's weight matrix when not as float.
enum WeightForm: Sendable, Hashable {
    /// Quantized to int8, multiplied in the given arithmetic.
    case int8(QuantizedMatrix.Arithmetic)
    /// Half precision as a float16 checkpoint stores it (a tensor stored
    /// in another type stays float: converting it would round it).
    case half
}
