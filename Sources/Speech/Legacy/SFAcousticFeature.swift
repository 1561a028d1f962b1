import Foundation

/// One acoustic feature of a stretch of speech, as a value per audio frame.
///
/// Part of `SFVoiceAnalytics` (jitter, shimmer, pitch, voicing).
/// - Note: On Linux the values are computed from the request's audio by
///   SpeechCompat's own pitch tracker (10 ms frames, 40 ms analysis window),
///   not by Apple's models; magnitudes are comparable, not identical.
@available(iOS 13.0, macOS 10.15, *)
open class SFAcousticFeature: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked: immutable after init.

    /// The feature's value for each frame of audio, in order.
    open private(set) var acousticFeatureValuePerFrame: [Double]
    /// The duration of one audio frame, in seconds.
    open private(set) var frameDuration: TimeInterval

    init(values: [Double], frameDuration: TimeInterval) {
        self.acousticFeatureValuePerFrame = values
        self.frameDuration = frameDuration
    }

    /// Returns `self`: the feature is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// `true`: the feature decodes securely.
    public static var supportsSecureCoding: Bool { true }

    /// Encodes the values and frame duration.
    open func encode(with coder: NSCoder) {
        coder.encode(acousticFeatureValuePerFrame.map { NSNumber(value: $0) } as NSArray, forKey: "values")
        coder.encode(frameDuration, forKey: "frameDuration")
    }

    /// Decodes a feature written by `encode(with:)`.
    public required init?(coder: NSCoder) {
        guard let values = coder.decodeObject(of: [NSArray.self, NSNumber.self], forKey: "values") as? [NSNumber] else {
            return nil
        }
        acousticFeatureValuePerFrame = values.map(\.doubleValue)
        frameDuration = coder.decodeDouble(forKey: "frameDuration")
    }

    /// Equal when values and frame duration are equal.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SFAcousticFeature else { return false }
        return acousticFeatureValuePerFrame == other.acousticFeatureValuePerFrame
            && frameDuration == other.frameDuration
    }

    /// Hash of the frame count and duration.
    open override var hash: Int {
        acousticFeatureValuePerFrame.count.hashValue ^ frameDuration.hashValue
    }
}
