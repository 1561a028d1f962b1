import Foundation

/// What runs recognition under a face: 16 kHz mono samples and verbs in, one
/// ordered stream of `SessionUpdate`s out.
///
/// The product's backend is the engine (`EngineBackend`); tests use a
/// scripted one, and the migration adapters run one face's pipeline under
/// the other face through this seam. `package` so that SpeechMigration can
/// implement it; apps never see it.
package protocol RecognitionBackend: AnyObject, Sendable {
    /// Updates in order; ends after `.finished` or `.failed`.
    var updates: AsyncStream<SessionUpdate> { get }
    /// Appends 16 kHz mono samples following the ones already appended.
    func append(_ samples: [Float])
    /// Advances stream time without audio (a gap in the input).
    func appendGap(seconds: Double)
    /// Appends audio that is all there (a file), to be decoded as a file.
    func appendRecording(_ samples: [Float])
    /// Finalizes what was heard before `seconds` of stream time; later audio stays volatile.
    func commit(throughSeconds seconds: Double)
    /// No more audio: finalize what is pending, then `.finished`.
    func finish()
    /// Stop now: no further results; the stream ends with a cancellation failure.
    func cancel()
}

extension RecognitionBackend {
    /// The rate of the samples every backend takes (the engine's one rate).
    package static var sampleRate: Double { BufferConversion.outputRate }
}
