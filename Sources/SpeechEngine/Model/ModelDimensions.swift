/// The sizes of a Whisper checkpoint, read from its tensor shapes.
public struct ModelDimensions: Sendable, Hashable {
    /// Mel bins of the input (80 for base and tiny.en).
    public let melCount: Int
    /// Encoder positions for a 30 s window (1500).
    public let audioContext: Int
    /// Model width (512 base, 384 tiny).
    public let width: Int
    /// Attention heads (width / 64).
    public let headCount: Int
    public let encoderLayerCount: Int
    /// Decoder positions (448).
    public let textContext: Int
    public let decoderLayerCount: Int
    /// Vocabulary size (51865 multilingual, 51864 English-only).
    public let vocabularySize: Int

    /// Width of one attention head: 64 for every Whisper size.
    public var headWidth: Int { width / headCount }
    /// Multilingual checkpoints have 51865 tokens; English-only ones 51864.
    public var isMultilingual: Bool { vocabularySize >= 51865 }
}
