// AVAudioFormat settings dictionaries: reading `init?(settings:)` and writing
// `settings`, with the keys of API.md §2.1.

extension AVAudioFormat {
    /// Creates a format from a settings dictionary (`AVFormatIDKey`,
    /// `AVSampleRateKey`, `AVNumberOfChannelsKey`, and for linear PCM
    /// `AVLinearPCMBitDepthKey`, `AVLinearPCMIsFloatKey`,
    /// `AVLinearPCMIsNonInterleaved`).
    ///
    /// Returns `nil` without a positive sample rate and channel count, or for
    /// big-endian or unsupported linear-PCM depths.
    /// - Note: Values may be Swift numbers, `Bool`s or `NSNumber`s.
    public convenience init?(settings: [String: Any]) {
        let formatID = settingsNumber(settings[AVFormatIDKey]).map { AudioFormatID(truncatingIfNeeded: Int64($0)) }
            ?? kAudioFormatLinearPCM
        guard let sampleRate = settingsNumber(settings[AVSampleRateKey]), sampleRate > 0, sampleRate.isFinite,
              let channels = settingsNumber(settings[AVNumberOfChannelsKey]), channels >= 1, channels < 65_536
        else { return nil }
        if formatID == kAudioFormatLinearPCM {
            let isFloat = settingsBool(settings[AVLinearPCMIsFloatKey]) ?? false
            let bitDepth = settingsNumber(settings[AVLinearPCMBitDepthKey]).map { Int($0) } ?? (isFloat ? 32 : 16)
            let validDepths = isFloat ? [32, 64] : [8, 16, 24, 32]
            guard validDepths.contains(bitDepth), settingsBool(settings[AVLinearPCMIsBigEndianKey]) != true
            else { return nil }
            let interleaved = !(settingsBool(settings[AVLinearPCMIsNonInterleaved]) ?? false)
            self.init(formatID: formatID, sampleRate: sampleRate, channelCount: AVAudioChannelCount(channels),
                      bitDepth: bitDepth, isFloat: isFloat, interleaved: interleaved)
        } else {
            self.init(formatID: formatID, sampleRate: sampleRate, channelCount: AVAudioChannelCount(channels),
                      bitDepth: 0, isFloat: false, interleaved: true)
        }
    }

    /// The format as a settings dictionary using the `AV…Key` constants.
    ///
    /// Values are Swift numbers: `AudioFormatID` for the format ID, `Double`
    /// for the sample rate, `Int` for counts and depths, `Bool` for flags.
    public var settings: [String: Any] {
        var result: [String: Any] = [
            AVFormatIDKey: formatID,
            AVSampleRateKey: sampleRate,
            AVNumberOfChannelsKey: Int(channelCount),
        ]
        if formatID == kAudioFormatLinearPCM {
            result[AVLinearPCMBitDepthKey] = bitDepth
            result[AVLinearPCMIsFloatKey] = isFloat
            result[AVLinearPCMIsBigEndianKey] = false
            result[AVLinearPCMIsNonInterleaved] = !isInterleaved
        }
        return result
    }
}

/// A settings value as a `Double`, whatever numeric type it was given as.
func settingsNumber(_ value: Any?) -> Double? {
    switch value {
    case let number as Double: return number
    case let number as Float: return Double(number)
    case let number as Int: return Double(number)
    case let number as Int32: return Double(number)
    case let number as Int64: return Double(number)
    case let number as UInt: return Double(number)
    case let number as UInt32: return Double(number)
    case let number as UInt64: return Double(number)
    case let number as NSNumber: return number.doubleValue
    default: return nil
    }
}

/// A settings value as a `Bool`, accepting numbers as C booleans.
func settingsBool(_ value: Any?) -> Bool? {
    if let flag = value as? Bool { return flag }
    return settingsNumber(value).map { $0 != 0 }
}
