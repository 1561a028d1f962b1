import Foundation

/// The engine's one entry for batch recognition: audio in, `Transcript` out.
///
/// A `Transcriber` holds a loaded model (shared, immutable) and creates
/// per-request decoding state for each call, so one instance serves
/// concurrent requests.
public final class Transcriber: Sendable {
    // Work in progress: the model, encoder, decoder and decoding loop land next.
    public init() {}

    /// Transcribes 16 kHz mono samples.
    /// - Parameter progress: called with the fraction of audio done, in [0, 1].
    public func transcribe(samples: [Float], options: TranscriptionOptions = TranscriptionOptions(),
                           progress: (@Sendable (Double) -> Void)? = nil) throws -> Transcript {
        throw EngineError(.internalInconsistency, "The decoder is not built yet.")
    }
}
