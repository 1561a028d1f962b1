// A streaming sample-rate converter over libsoxr, for AVAudioConverter.
// Internal: interleaved Float32 in, interleaved Float32 out.

import CSoxr

/// Streams interleaved Float32 audio through libsoxr.
///
/// soxr aligns its output with its input (no leading delay) and holds back
/// the filter's look-ahead until more input arrives or the stream is flushed.
/// - Shape: `channels` interleaved samples per frame, in and out.
final class SoxrResampler {
    /// Input frames per second.
    let inputRate: Double
    /// Output frames per second.
    let outputRate: Double
    /// Interleaved channels.
    let channels: Int
    /// The soxr quality recipe.
    let quality: UInt
    private let handle: soxr_t

    /// Creates a resampler; `quality` is a soxr recipe (`SOXR_LQ` … `SOXR_VHQ`).
    init?(inputRate: Double, outputRate: Double, channels: Int, quality: UInt) {
        var error: soxr_error_t?
        var ioSpec = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var qualitySpec = soxr_quality_spec(UInt(quality), 0)
        guard let created = soxr_create(inputRate, outputRate, UInt32(channels), &error, &ioSpec, &qualitySpec, nil),
              error == nil else { return nil }
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channels = channels
        self.quality = quality
        handle = created
    }

    deinit { soxr_delete(handle) }

    /// Resamples `frameCount` interleaved frames and appends the output
    /// (possibly fewer frames than the ratio implies) to `output`.
    func process(_ input: UnsafePointer<Float>, frameCount: Int, appendingTo output: inout [Float]) {
        var consumed = 0
        let ratio = outputRate / inputRate
        var scratch = [Float](repeating: 0, count: (Int(Double(frameCount) * ratio) + 256) * channels)
        while consumed < frameCount {
            var inputDone = 0
            var outputDone = 0
            scratch.withUnsafeMutableBufferPointer { out in
                _ = soxr_process(handle, input + consumed * channels, frameCount - consumed, &inputDone,
                                 out.baseAddress, out.count / channels, &outputDone)
            }
            output.append(contentsOf: scratch[0..<(outputDone * channels)])
            consumed += inputDone
            if inputDone == 0 && outputDone == 0 { break }
        }
    }

    /// Flushes the held-back tail at the end of the stream into `output`.
    func flush(appendingTo output: inout [Float]) {
        var scratch = [Float](repeating: 0, count: 4_096 * channels)
        while true {
            var outputDone = 0
            scratch.withUnsafeMutableBufferPointer { out in
                _ = soxr_process(handle, nil, 0, nil, out.baseAddress, out.count / channels, &outputDone)
            }
            if outputDone == 0 { break }
            output.append(contentsOf: scratch[0..<(outputDone * channels)])
        }
    }

    /// The most output frames this configuration ever holds back, measured by
    /// streaming a second of silence through a scratch resampler in small
    /// chunks. soxr works in blocks, so its hold-back rises and falls.
    func maximumHoldBack() -> Int {
        guard let probe = SoxrResampler(inputRate: inputRate, outputRate: outputRate, channels: 1,
                                        quality: quality) else { return 0 }
        let chunkFrames = 64
        let silence = [Float](repeating: 0, count: chunkFrames)
        var output: [Float] = []
        var inputTotal = 0
        var worst = 0
        while inputTotal < Int(inputRate) + 4 * chunkFrames {
            silence.withUnsafeBufferPointer { probe.process($0.baseAddress!, frameCount: chunkFrames, appendingTo: &output) }
            inputTotal += chunkFrames
            let expected = Int((Double(inputTotal) * outputRate / inputRate).rounded())
            worst = max(worst, expected - output.count)
        }
        return worst + 16 // slack: the exact hold-back depends a little on chunking
    }

    /// The soxr recipe for an `AVAudioQuality` raw value.
    static func recipe(forQuality quality: Int) -> UInt {
        switch quality {
        case ..<AVAudioQuality.low.rawValue: return UInt(SOXR_QQ)
        case ..<AVAudioQuality.medium.rawValue: return UInt(SOXR_LQ)
        case ..<AVAudioQuality.high.rawValue: return UInt(SOXR_MQ)
        case ..<AVAudioQuality.max.rawValue: return UInt(SOXR_HQ)
        default: return UInt(SOXR_VHQ)
        }
    }
}
