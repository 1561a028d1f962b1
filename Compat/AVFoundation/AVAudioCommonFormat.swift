// AVAudioCommonFormat: the sample formats AVAudioPCMBuffer can hold.

/// The common PCM sample formats used for processing.
///
/// Raw values follow `AVAudioFormat.h`.
public enum AVAudioCommonFormat: UInt, @unchecked Sendable {
    /// A format other than the ones below (compressed, 24-bit, big-endian, …).
    case otherFormat = 0
    /// 32-bit native-endian floating point, nominally in [-1, 1].
    case pcmFormatFloat32 = 1
    /// 64-bit native-endian floating point.
    case pcmFormatFloat64 = 2
    /// 16-bit native-endian signed integer.
    case pcmFormatInt16 = 3
    /// 32-bit native-endian signed integer.
    case pcmFormatInt32 = 4

    /// Bytes per sample, or 0 for `.otherFormat`.
    var bytesPerSample: Int {
        switch self {
        case .otherFormat: return 0
        case .pcmFormatFloat32, .pcmFormatInt32: return 4
        case .pcmFormatFloat64: return 8
        case .pcmFormatInt16: return 2
        }
    }

    /// Bits per sample, or 0 for `.otherFormat`.
    var bitDepth: Int { bytesPerSample * 8 }

    /// Whether the samples are floating point.
    var isFloat: Bool { self == .pcmFormatFloat32 || self == .pcmFormatFloat64 }

    /// The common format for linear PCM of the given depth, if there is one.
    static func linearPCM(bitDepth: Int, isFloat: Bool) -> AVAudioCommonFormat {
        switch (bitDepth, isFloat) {
        case (32, true): return .pcmFormatFloat32
        case (64, true): return .pcmFormatFloat64
        case (16, false): return .pcmFormatInt16
        case (32, false): return .pcmFormatInt32
        default: return .otherFormat
        }
    }
}
