import AVFoundation
import Foundation
import Speech

/// A request for appended audio for `ModernBackedSpeechRecognizer`, the
/// counterpart of `SFSpeechAudioBufferRecognitionRequest`: buffers become
/// `AnalyzerInput`s of an input sequence, `endAudio()` ends the sequence.
///
/// Like the legacy request it takes any PCM format and converts it to
/// 16 kHz mono (`SpeechAnalyzer` itself never converts buffer input).
/// Audio appended before the task starts is kept for it; audio after
/// `endAudio()` is ignored.
/// - Note: A legacy `SFSpeechAudioBufferRecognitionRequest` cannot be given
///   to the adapter: its appended audio is private to the legacy task. Port
///   `SFSpeechAudioBufferRecognitionRequest()` to this class; `append(_:)`
///   and `endAudio()` keep their names.
public final class ModernBackedAudioBufferRecognitionRequest: ModernBackedRecognitionRequest, @unchecked Sendable {
    // @unchecked: `append` and `endAudio` are serialized by `lock`.

    private let lock = NSLock()
    private let converter = MonoAudioConverter()
    private let inputs: AsyncStream<AnalyzerInput>
    private let continuation: AsyncStream<AnalyzerInput>.Continuation
    private var ended = false
    private var conversionError: (any Error)?

    /// Creates an empty request.
    public override init() {
        (inputs, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
        super.init()
    }

    /// The preferred format: 16 kHz mono Float32 (any PCM format is accepted).
    public var nativeAudioFormat: AVAudioFormat { MonoAudioConverter.outputFormat }

    /// Appends audio; converted to 16 kHz mono for the analyzer.
    public func append(_ audioPCMBuffer: AVAudioPCMBuffer) {
        lock.withLock {
            guard !ended else { return }
            do {
                let converted = try converter.convert(audioPCMBuffer)
                if converted.frameLength > 0 { continuation.yield(AnalyzerInput(buffer: converted)) }
            } catch {
                conversionError = error
                ended = true
                continuation.finish()
            }
        }
    }

    /// Marks the end of the audio: what was appended is recognized and the
    /// final result is delivered.
    public func endAudio() {
        lock.withLock {
            guard !ended else { return }
            ended = true
            if let rest = try? converter.finish(), rest.frameLength > 0 {
                continuation.yield(AnalyzerInput(buffer: rest))
            }
            continuation.finish()
        }
    }

    override func stopAudio() {
        endAudio()
    }

    override func analyze(with analyzer: SpeechAnalyzer) async throws -> CMTime? {
        let end = try await analyzer.analyzeSequence(inputs)
        if let failure = lock.withLock({ conversionError }) {
            throw SFSpeechError(.audioReadFailed, userInfo: [
                NSLocalizedDescriptionKey: "An appended buffer could not be converted.", NSUnderlyingErrorKey: failure])
        }
        return end
    }
}
