import Foundation

/// A (log-)mel spectrogram: `melCount` bands over `frameCount` frames of 10 ms.
///
/// Whisper's encoder reads a `melCount × 3000` slice (30 s); `window(startFrame:frameCount:)`
/// cuts such slices the way Whisper's transcribe loop does.
///
/// - Shape: `values` is mel-major, `melCount × frameCount`: `values[mel * frameCount + frame]`.
public struct MelSpectrogram: Sendable, Equatable {
    /// Number of mel bands (80 for most Whisper models, 128 for large-v3).
    public let melCount: Int
    /// Number of 10 ms frames (hop of 160 samples at 16 kHz).
    public let frameCount: Int
    /// The values, mel-major: `values[mel * frameCount + frame]`.
    public var values: [Float]

    /// Wraps mel-major values.
    ///
    /// - Precondition: `values.count == melCount * frameCount`.
    public init(melCount: Int, frameCount: Int, values: [Float]) {
        precondition(melCount > 0 && frameCount >= 0, "invalid mel spectrogram shape")
        precondition(values.count == melCount * frameCount,
                     "mel values (\(values.count)) do not match \(melCount) × \(frameCount)")
        self.melCount = melCount
        self.frameCount = frameCount
        self.values = values
    }

    /// The value of band `mel` at frame `frame`.
    public subscript(mel mel: Int, frame frame: Int) -> Float {
        values[mel * frameCount + frame]
    }

    /// Duration covered by the frames, in seconds (10 ms per frame).
    public var durationSeconds: Double {
        Double(frameCount * LogMelSpectrogram.hopLength) / LogMelSpectrogram.sampleRate
    }

    /// A `melCount × frameCount` slice starting at `startFrame`, mel-major, as
    /// Whisper's `pad_or_trim(mel[:, seek:seek + N], N)`: frames past the end of
    /// the spectrogram are filled with `0.0` (pad_or_trim pads the normalised
    /// log-mel with zeros, it does not repeat the silence level).
    ///
    /// ref: openai/whisper `transcribe.py` `mel_segment = mel[:, seek : seek + segment_size]`,
    /// `mel_segment = pad_or_trim(mel_segment, N_FRAMES)`; `audio.py` `pad_or_trim` (`F.pad`, zeros).
    ///
    /// - Shape: the result has `melCount * frameCount` values: `result[mel * frameCount + i]`.
    public func window(startFrame: Int, frameCount count: Int) -> [Float] {
        precondition(startFrame >= 0 && count >= 0, "window start and length must not be negative")
        var result = [Float](repeating: 0, count: melCount * count)
        let available = max(0, min(count, frameCount - startFrame))
        guard available > 0 else { return result }
        values.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { target in
                for mel in 0..<melCount {
                    let from = source.baseAddress! + mel * frameCount + startFrame
                    let to = target.baseAddress! + mel * count
                    to.update(from: from, count: available)
                }
            }
        }
        return result
    }

    /// `window(startFrame:frameCount:)` with every frame from `contentFrames` on set
    /// to `0.0`: a short window padded as faster-whisper pads it (`pad_or_trim` on
    /// the normalised features) rather than with the log-mel of silent audio.
    public func window(startFrame: Int, frameCount count: Int, zeroingFramesFrom contentFrames: Int) -> [Float] {
        var result = window(startFrame: startFrame, frameCount: count)
        let first = max(0, min(count, contentFrames))
        guard first < count else { return result }
        result.withUnsafeMutableBufferPointer { target in
            for mel in 0..<melCount {
                (target.baseAddress! + mel * count + first).update(repeating: 0, count: count - first)
            }
        }
        return result
    }
}
