import Foundation

/// Vocal analytics of a stretch of speech: jitter, shimmer, pitch and voicing
/// per audio frame.
///
/// Available in final results of server-style recognition.
/// - Note: On Linux the features come from SpeechCompat's pitch tracker over
///   the request's 16 kHz audio: `pitch` is the natural log of the fundamental
///   frequency in Hz (0 in unvoiced frames), `voicing` the periodicity of the
///   frame in [0, 1], `jitter` the change of the pitch period from the
///   previous voiced frame in percent of the period, `shimmer` the change of
///   peak amplitude from the previous voiced frame in dB (both 0 when unvoiced).
///   Like Apple, on-device (`requiresOnDeviceRecognition`) results carry none.
@available(iOS 13.0, macOS 10.15, *)
open class SFVoiceAnalytics: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked: immutable after init.

    /// Variation of pitch per frame, in percent of the fundamental period.
    open private(set) var jitter: SFAcousticFeature
    /// Variation of amplitude per frame, in decibels.
    open private(set) var shimmer: SFAcousticFeature
    /// Log of the fundamental frequency per frame.
    open private(set) var pitch: SFAcousticFeature
    /// Likelihood of voicing per frame, in [0, 1].
    open private(set) var voicing: SFAcousticFeature

    init(jitter: SFAcousticFeature, shimmer: SFAcousticFeature, pitch: SFAcousticFeature, voicing: SFAcousticFeature) {
        self.jitter = jitter
        self.shimmer = shimmer
        self.pitch = pitch
        self.voicing = voicing
    }

    /// Returns `self`: analytics are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// `true`: analytics decode securely.
    public static var supportsSecureCoding: Bool { true }

    /// Encodes the four features.
    open func encode(with coder: NSCoder) {
        coder.encode(jitter, forKey: "jitter")
        coder.encode(shimmer, forKey: "shimmer")
        coder.encode(pitch, forKey: "pitch")
        coder.encode(voicing, forKey: "voicing")
    }

    /// Decodes analytics written by `encode(with:)`.
    public required init?(coder: NSCoder) {
        func feature(_ key: String) -> SFAcousticFeature? {
            coder.decodeObject(of: SFAcousticFeature.self, forKey: key)
        }
        guard let jitter = feature("jitter"), let shimmer = feature("shimmer"),
              let pitch = feature("pitch"), let voicing = feature("voicing") else { return nil }
        self.jitter = jitter
        self.shimmer = shimmer
        self.pitch = pitch
        self.voicing = voicing
    }

    /// Equal when all four features are equal.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SFVoiceAnalytics else { return false }
        return jitter == other.jitter && shimmer == other.shimmer && pitch == other.pitch && voicing == other.voicing
    }

    /// Hash of the pitch feature.
    open override var hash: Int { pitch.hash }
}
