import AVFoundation
import CoreMedia
import Foundation
internal import SpeechEngine

/// Converts the audio apps append — `AVAudioPCMBuffer`s in any PCM format —
/// into the engine's 16 kHz mono Float samples, as a stream.
///
/// Float32, Int16 and Int32 samples, interleaved or not, any rate and any
/// channel count: channels are averaged to mono (`Downmix`) and the result is
/// resampled to 16 kHz with a streaming resampler whose filter state carries
/// across buffers, so chunk boundaries leave no clicks or gaps. When the
/// input rate changes mid-stream the old resampler's tail is flushed first.
///
/// Not thread-safe: the owner serializes calls.
final class BufferConversion {
    /// The engine's sample rate.
    static let outputRate = Transcriber.sampleRate

    private var resampler: Resampler?

    /// Creates a converter with no input seen yet.
    init() {}

    /// The buffer's valid frames as 16 kHz mono samples (the resampler may
    /// hold back a few milliseconds until the next call or `finish()`).
    /// - Throws: `EngineError(.unsupportedAudioFormat)` for formats without
    ///   public sample access (Float64, non-PCM) or a bad sample rate.
    func convert(_ buffer: AVAudioPCMBuffer) throws -> [Float] {
        let mono = try Self.monoSamples(of: buffer)
        return try resample(mono, rate: buffer.format.sampleRate)
    }

    /// A Core Media sample buffer's samples as 16 kHz mono, continuing the stream.
    /// - Throws: `EngineError(.unsupportedAudioFormat)` when it does not hold
    ///   linear PCM in a common format.
    func convert(_ sampleBuffer: CMSampleBuffer) throws -> [Float] {
        guard let buffer = sampleBuffer.makeAudioPCMBuffer() else {
            throw EngineError(.unsupportedAudioFormat,
                              "The sample buffer does not hold linear PCM audio (Float32, Int16 or Int32).")
        }
        return try convert(buffer)
    }

    /// Resamples mono samples at `rate` Hz, continuing the stream.
    func resample(_ mono: [Float], rate: Double) throws -> [Float] {
        var output: [Float] = []
        if let current = resampler, current.inputRate != rate {
            output += current.finish()
            resampler = nil
        }
        if resampler == nil {
            resampler = try Resampler(inputRate: rate, outputRate: Self.outputRate)
        }
        output += resampler?.process(mono) ?? []
        return output
    }

    /// Flushes the resampler's tail at the end of the stream.
    func finish() -> [Float] {
        defer { resampler = nil }
        return resampler?.finish() ?? []
    }

    /// The buffer's valid frames averaged over channels, as Float in [-1, 1].
    static func monoSamples(of buffer: AVAudioPCMBuffer) throws -> [Float] {
        let format = buffer.format
        let channels = Int(format.channelCount)
        let frames = Int(buffer.frameLength)
        guard channels > 0 else {
            throw EngineError(.unsupportedAudioFormat, "The audio buffer has no channels.")
        }
        guard frames > 0 else { return [] }
        // Interleaved data lives behind the first channel pointer with a
        // stride of `channels`; planar data behind one pointer per channel.
        let interleaved = format.isInterleaved && channels > 1
        func read<Sample>(_ data: UnsafePointer<UnsafeMutablePointer<Sample>>?,
                          _ toFloat: (Sample) -> Float) throws -> [Float] {
            guard let data else {
                throw EngineError(.unsupportedAudioFormat, "The audio buffer's samples are not accessible.")
            }
            var mono = [Float](repeating: 0, count: frames)
            let scale = 1 / Float(channels)
            for channel in 0..<channels {
                let base = interleaved ? data[0] + channel : data[channel]
                let step = interleaved ? channels : 1
                for frame in 0..<frames { mono[frame] += toFloat(base[frame * step]) * scale }
            }
            return mono
        }
        switch format.commonFormat {
        case .pcmFormatFloat32: return try read(buffer.floatChannelData) { $0 }
        case .pcmFormatInt16: return try read(buffer.int16ChannelData) { Float($0) / 32_768 }
        case .pcmFormatInt32: return try read(buffer.int32ChannelData) { Float(Double($0) / 2_147_483_648) }
        default:
            throw EngineError(.unsupportedAudioFormat,
                              "Append Float32, Int16 or Int32 PCM buffers (got \(format.commonFormat.rawValue)); "
                              + "convert other formats with AVAudioConverter first.")
        }
    }
}

extension BufferConversion {
    /// A whole audio file (any format libsndfile reads) as 16 kHz mono samples.
    /// - Throws: `SFSpeechError.audioReadFailed` when it cannot be read.
    static func samples(ofFileAt url: URL) throws -> [Float] {
        do {
            return try AudioDecoder.decode(contentsOf: url)
        } catch {
            throw ErrorMapping.legacyError(forAny: error)
        }
    }
}
