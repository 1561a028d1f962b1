import AVFoundation
import Foundation

/// Converts buffers in any PCM format to 16 kHz mono Float32, the format
/// both faces accept, keeping resampler state across buffers.
///
/// `SpeechAnalyzer` never converts buffer input, while the legacy buffer
/// request takes any format: adapters that feed one from the other convert
/// here. Not thread-safe: callers serialize.
public final class MonoAudioConverter {
    /// 16 kHz mono Float32, non-interleaved.
    public static let outputFormat = AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 16_000,
                                                   channels: 1, interleaved: false)!

    /// `samples` (16 kHz mono) as a buffer in `outputFormat`; nil when no
    /// buffer of that size can be made (none of zero frames).
    public static func buffer(_ samples: ArraySlice<Float>) -> AVAudioPCMBuffer? {
        guard let buffer = AVAudioPCMBuffer(pcmFormat: outputFormat, frameCapacity: AVAudioFrameCount(samples.count)),
              let channel = buffer.floatChannelData?[0] else { return nil }
        samples.withUnsafeBufferPointer { channel.update(from: $0.baseAddress!, count: samples.count) }
        buffer.frameLength = AVAudioFrameCount(samples.count)
        return buffer
    }

    /// Writes `samples` (16 kHz mono) to a new temporary WAV file, for the
    /// adapters that hand a recording to a face that takes files.
    static func writeTemporaryRecording(_ samples: [Float]) throws -> URL {
        guard let buffer = buffer(samples[...]) else {
            throw MigrationError(.adapterFailure, "A buffer of \(samples.count) samples could not be made.")
        }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("speechcompat-recording-\(UUID().uuidString).wav")
        try AVAudioFile(forWriting: url, settings: outputFormat.settings).write(from: buffer)
        return url
    }

    private var converter: AVAudioConverter?
    private var inputFormat: AVAudioFormat?

    /// Creates a converter; the input format is taken from the first buffer.
    public init() {}

    /// Converts `buffer`; the result may be shorter or empty while the
    /// resampler fills (the rest comes with later buffers or `finish()`).
    /// - Throws: `MigrationError` (`.audioUnreadable`) for a format that
    ///   cannot be converted.
    public func convert(_ buffer: AVAudioPCMBuffer) throws -> AVAudioPCMBuffer {
        if inputFormat == nil || inputFormat != buffer.format {
            guard let made = AVAudioConverter(from: buffer.format, to: Self.outputFormat) else {
                throw MigrationError(.audioUnreadable, "Audio in \(buffer.format) cannot be converted to 16 kHz mono.")
            }
            converter = made
            inputFormat = buffer.format
        }
        return try pull(from: buffer)
    }

    /// Flushes the frames still held by the resampler.
    public func finish() throws -> AVAudioPCMBuffer {
        try pull(from: nil)
    }

    private func pull(from buffer: AVAudioPCMBuffer?) throws -> AVAudioPCMBuffer {
        let inputFrames = Double(buffer?.frameLength ?? 0)
        let rate = inputFormat?.sampleRate ?? 16_000
        let capacity = AVAudioFrameCount((inputFrames * 16_000 / rate).rounded(.up)) + 4_096
        guard let output = AVAudioPCMBuffer(pcmFormat: Self.outputFormat, frameCapacity: capacity) else {
            throw MigrationError(.audioUnreadable, "An output buffer of \(capacity) frames could not be made.")
        }
        guard let converter else { return output }
        var supplied = false
        var failure: NSError?
        let status = converter.convert(to: output, error: &failure) { _, inputStatus in
            guard let buffer else {
                inputStatus.pointee = .endOfStream
                return nil
            }
            if supplied {
                inputStatus.pointee = .noDataNow
                return nil
            }
            supplied = true
            inputStatus.pointee = .haveData
            return buffer
        }
        if status == .error {
            throw MigrationError(.audioUnreadable, "Audio conversion to 16 kHz mono failed.", underlying: failure)
        }
        if buffer == nil { converter.reset() }
        return output
    }
}
