// The negotiated shape of an ALSA capture stream.

import CALSA

/// Rate, channels and sample format of an open ALSA capture stream
/// (interleaved access).
struct ALSAStreamParameters: Sendable, Equatable {
    /// The ALSA sample formats SpeechCompat captures in, in order of preference.
    enum SampleFormat: Sendable, Equatable {
        case int16, int32, float32

        /// The ALSA format constant.
        var alsaFormat: snd_pcm_format_t {
            switch self {
            case .int16: return SND_PCM_FORMAT_S16_LE
            case .int32: return SND_PCM_FORMAT_S32_LE
            case .float32: return SND_PCM_FORMAT_FLOAT_LE
            }
        }
    }

    /// Frames per second.
    var rate: Int
    /// Interleaved channels.
    var channels: Int
    /// The sample encoding.
    var sampleFormat: SampleFormat
    /// Frames per ALSA period (one read).
    var periodFrames: Int

    /// Bytes per sample.
    var bytesPerSample: Int { sampleFormat == .int16 ? 2 : 4 }

    /// Bytes per sample for an ALSA format name such as `S16_LE`.
    static func bytesPerSample(named name: String) -> Int? {
        switch name.uppercased() {
        case "S8", "U8": return 1
        case "S16_LE", "S16_BE", "U16_LE", "U16_BE", "S16", "U16": return 2
        case "S24_3LE", "S24_3BE", "U24_3LE", "U24_3BE": return 3
        case "S24_LE", "S24_BE", "S32_LE", "S32_BE", "FLOAT_LE", "FLOAT_BE", "S32", "FLOAT", "U32_LE": return 4
        case "FLOAT64_LE", "FLOAT64_BE", "FLOAT64": return 8
        default: return nil
        }
    }

    /// The stream as the standard AVAudioFormat an input node reports.
    var standardFormat: AVAudioFormat {
        AVAudioFormat(standardFormatWithSampleRate: Double(rate), channels: AVAudioChannelCount(channels))!
    }
}
