// AVAudioFormat: an immutable description of an audio stream (API.md §2.3).

/// Describes a stream of audio: sample rate, channel count, sample format and
/// layout.
///
/// PCM formats with a common sample format (Float32, Float64, Int16, Int32)
/// can back an `AVAudioPCMBuffer`. Other formats (FLAC, Opus, 24-bit integer,
/// …) describe files on disk and report `.otherFormat`.
/// - Note: On Linux formats compare by content through `isEqual(_:)`, as on
///   Apple platforms, so `buffer.format != targetFormat` works.
/// - Note: Formats conform to `NSSecureCoding` as on Apple platforms: they
///   round-trip through `NSKeyedArchiver` with `requiringSecureCoding: true`.
open class AVAudioFormat: NSObject, NSSecureCoding, @unchecked Sendable {
    /// Frames per second.
    public let sampleRate: Double
    /// The number of channels.
    public let channelCount: AVAudioChannelCount
    /// The common sample format, or `.otherFormat`.
    public let commonFormat: AVAudioCommonFormat
    /// Whether channels are interleaved in one buffer.
    public let isInterleaved: Bool
    /// The Core Audio format ID (`kAudioFormatLinearPCM` for PCM).
    let formatID: AudioFormatID
    /// Bits per sample for linear PCM (16, 24, 32, 64), 0 when not applicable.
    let bitDepth: Int
    /// Whether linear-PCM samples are floating point.
    let isFloat: Bool
    /// An explicit layout given at creation, for more than two channels.
    private let explicitLayout: AVAudioChannelLayout?
    /// The Core Audio record of this format, at a stable address.
    private let streamDescriptionStorage: UnsafeMutablePointer<AudioStreamBasicDescription>
    /// The codec's magic cookie; the only mutable part of a format (Apple
    /// lets callers set it), so it sits behind a lock.
    private let cookieStorage = NSLock()
    private var cookie: Data?

    /// The designated initializer over every field.
    init(formatID: AudioFormatID, sampleRate: Double, channelCount: AVAudioChannelCount,
         bitDepth: Int, isFloat: Bool, interleaved: Bool, layout: AVAudioChannelLayout? = nil) {
        self.formatID = formatID
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.bitDepth = bitDepth
        self.isFloat = isFloat
        self.isInterleaved = interleaved
        self.commonFormat = formatID == kAudioFormatLinearPCM
            ? AVAudioCommonFormat.linearPCM(bitDepth: bitDepth, isFloat: isFloat) : .otherFormat
        self.explicitLayout = layout
        streamDescriptionStorage = .allocate(capacity: 1)
        streamDescriptionStorage.initialize(to: AVAudioFormat.streamDescription(
            formatID: formatID, sampleRate: sampleRate, channelCount: channelCount,
            bitDepth: bitDepth, isFloat: isFloat, interleaved: interleaved))
        super.init()
    }

    deinit { streamDescriptionStorage.deallocate() }

    /// `true`: formats decode securely.
    public static var supportsSecureCoding: Bool { true }

    /// Encodes every field of the format, its explicit layout and its magic cookie.
    open func encode(with coder: NSCoder) {
        coder.encode(Int64(formatID), forKey: "formatID")
        coder.encode(sampleRate, forKey: "sampleRate")
        coder.encode(Int64(channelCount), forKey: "channelCount")
        coder.encode(Int64(bitDepth), forKey: "bitDepth")
        coder.encode(isFloat, forKey: "isFloat")
        coder.encode(isInterleaved, forKey: "interleaved")
        if let explicitLayout { coder.encode(Int64(explicitLayout.layoutTag), forKey: "layoutTag") }
        if let magicCookie { coder.encode(magicCookie as NSData, forKey: "magicCookie") }
    }

    /// Decodes a format written by `encode(with:)`; `nil` (with the coder's
    /// error set) when a field is missing or out of range.
    public required init?(coder: NSCoder) {
        let sampleRate = coder.decodeDouble(forKey: "sampleRate")
        let channels = coder.decodeInt64(forKey: "channelCount")
        let bitDepth = coder.decodeInt64(forKey: "bitDepth")
        let formatID = coder.decodeInt64(forKey: "formatID")
        guard coder.containsValue(forKey: "formatID"), sampleRate > 0, sampleRate.isFinite,
              (1..<65_536).contains(channels), (0...64).contains(bitDepth), (0...Int64(UInt32.max)).contains(formatID)
        else {
            coder.failWithError(CocoaError(.coderReadCorrupt, userInfo: [
                NSLocalizedDescriptionKey: "The archived AVAudioFormat is missing a field or has one out of range."]))
            return nil
        }
        self.formatID = AudioFormatID(formatID)
        self.sampleRate = sampleRate
        channelCount = AVAudioChannelCount(channels)
        self.bitDepth = Int(bitDepth)
        isFloat = coder.decodeBool(forKey: "isFloat")
        isInterleaved = coder.decodeBool(forKey: "interleaved")
        commonFormat = self.formatID == kAudioFormatLinearPCM
            ? AVAudioCommonFormat.linearPCM(bitDepth: self.bitDepth, isFloat: isFloat) : .otherFormat
        explicitLayout = coder.containsValue(forKey: "layoutTag")
            ? AVAudioChannelLayout(layoutTag: AudioChannelLayoutTag(truncatingIfNeeded: coder.decodeInt64(forKey: "layoutTag")))
            : nil
        // Linux Foundation records an error for a missing key, so look first.
        cookie = coder.containsValue(forKey: "magicCookie")
            ? coder.decodeObject(of: NSData.self, forKey: "magicCookie").map { Data($0) } : nil
        streamDescriptionStorage = .allocate(capacity: 1)
        streamDescriptionStorage.initialize(to: AVAudioFormat.streamDescription(
            formatID: self.formatID, sampleRate: sampleRate, channelCount: channelCount,
            bitDepth: self.bitDepth, isFloat: isFloat, interleaved: isInterleaved))
        super.init()
    }

    /// The codec's magic cookie (out-of-band setup data of a compressed
    /// format); `nil` for PCM unless set.
    open var magicCookie: Data? {
        get { cookieStorage.withLock { cookie } }
        set { cookieStorage.withLock { cookie = newValue } }
    }

    /// The format as a Core Audio `AudioStreamBasicDescription`.
    open var streamDescription: UnsafePointer<AudioStreamBasicDescription> { UnsafePointer(streamDescriptionStorage) }

    /// Creates a PCM format with a common sample format.
    ///
    /// Returns `nil` for `.otherFormat`, zero channels or a sample rate that is
    /// not positive and finite.
    public convenience init?(commonFormat format: AVAudioCommonFormat, sampleRate: Double,
                             channels: AVAudioChannelCount, interleaved: Bool) {
        guard format != .otherFormat, channels > 0, sampleRate > 0, sampleRate.isFinite else { return nil }
        self.init(formatID: kAudioFormatLinearPCM, sampleRate: sampleRate, channelCount: channels,
                  bitDepth: format.bitDepth, isFloat: format.isFloat, interleaved: interleaved)
    }

    /// Creates a PCM format with a common sample format and a channel layout.
    public convenience init(commonFormat format: AVAudioCommonFormat, sampleRate: Double,
                            interleaved: Bool, channelLayout layout: AVAudioChannelLayout) {
        self.init(formatID: kAudioFormatLinearPCM, sampleRate: sampleRate, channelCount: layout.channelCount,
                  bitDepth: format.bitDepth, isFloat: format.isFloat, interleaved: interleaved, layout: layout)
    }

    /// Creates the standard format: Float32, deinterleaved.
    public convenience init?(standardFormatWithSampleRate sampleRate: Double, channels: AVAudioChannelCount) {
        self.init(commonFormat: .pcmFormatFloat32, sampleRate: sampleRate, channels: channels, interleaved: false)
    }

    /// Creates the standard format (Float32, deinterleaved) for a channel layout.
    public convenience init(standardFormatWithSampleRate sampleRate: Double, channelLayout layout: AVAudioChannelLayout) {
        self.init(commonFormat: .pcmFormatFloat32, sampleRate: sampleRate, interleaved: false, channelLayout: layout)
    }

    /// Whether the format is Float32 and deinterleaved.
    open var isStandard: Bool { commonFormat == .pcmFormatFloat32 && !isInterleaved }

    /// The channel layout; `nil` for mono and stereo, as on Apple platforms.
    open var channelLayout: AVAudioChannelLayout? {
        if let explicitLayout { return explicitLayout }
        return channelCount > 2 ? AVAudioChannelLayout.defaultLayout(channelCount: channelCount) : nil
    }

    /// Bytes per frame in one buffer of a PCM buffer (0 for non-PCM formats).
    var bytesPerFrame: Int {
        guard commonFormat != .otherFormat else { return 0 }
        return commonFormat.bytesPerSample * (isInterleaved ? Int(channelCount) : 1)
    }

    /// Whether two formats describe the same stream: same rate, channels,
    /// sample format, layout and encoding.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioFormat else { return false }
        return other.sampleRate == sampleRate && other.channelCount == channelCount
            && other.formatID == formatID && other.bitDepth == bitDepth && other.isFloat == isFloat
            && other.isInterleaved == isInterleaved
    }

    /// A hash consistent with `isEqual(_:)`.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(sampleRate)
        hasher.combine(channelCount)
        hasher.combine(formatID)
        hasher.combine(bitDepth)
        hasher.combine(isFloat)
        hasher.combine(isInterleaved)
        return hasher.finalize()
    }

    /// A readable summary such as `<AVAudioFormat: 1 ch, 16000 Hz, Float32>`.
    open override var description: String {
        let kind: String
        switch commonFormat {
        case .pcmFormatFloat32: kind = "Float32"
        case .pcmFormatFloat64: kind = "Float64"
        case .pcmFormatInt16: kind = "Int16"
        case .pcmFormatInt32: kind = "Int32"
        case .otherFormat: kind = formatID == kAudioFormatLinearPCM ? "\(bitDepth)-bit PCM" : fourCharacterCode(formatID)
        }
        let layout = channelCount > 1 ? (isInterleaved ? ", interleaved" : ", deinterleaved") : ""
        return "<AVAudioFormat: \(channelCount) ch, \(Int(sampleRate)) Hz, \(kind)\(layout)>"
    }
}

/// The four characters of a Core Audio code, e.g. `flac`.
func fourCharacterCode(_ code: UInt32) -> String {
    let bytes = [24, 16, 8, 0].map { UInt8((code >> UInt32($0)) & 0xFF) }
    return String(decoding: bytes, as: UTF8.self)
}
