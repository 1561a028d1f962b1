// AVAudioTime: a moment in host time and/or sample time (API.md §2.8).

#if canImport(Glibc)
import Glibc
#endif

/// A time in an audio stream, as host time, sample time, or both.
///
/// Taps receive one with each buffer: `sampleTime` counts frames since the
/// engine started, `hostTime` is when the first frame was captured.
/// - Note: On Linux host time is `CLOCK_MONOTONIC` in nanoseconds, so
///   `hostTime(forSeconds:)` multiplies by 10⁹.
open class AVAudioTime: NSObject, @unchecked Sendable {
    /// The host time, valid when `isHostTimeValid`.
    public let hostTime: UInt64
    /// Whether `hostTime` is meaningful.
    public let isHostTimeValid: Bool
    /// The sample time in frames, valid when `isSampleTimeValid`.
    public let sampleTime: AVAudioFramePosition
    /// Whether `sampleTime` is meaningful.
    public let isSampleTimeValid: Bool
    /// The sample rate of `sampleTime`.
    public let sampleRate: Double

    private init(hostTime: UInt64?, sampleTime: AVAudioFramePosition?, sampleRate: Double) {
        self.hostTime = hostTime ?? 0
        self.isHostTimeValid = hostTime != nil
        self.sampleTime = sampleTime ?? 0
        self.isSampleTimeValid = sampleTime != nil
        self.sampleRate = sampleRate
        super.init()
    }

    /// Creates a time with only a host time.
    public convenience init(hostTime: UInt64) {
        self.init(hostTime: hostTime, sampleTime: nil, sampleRate: 0)
    }

    /// Creates a time with only a sample time at a rate.
    public convenience init(sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
        self.init(hostTime: nil, sampleTime: sampleTime, sampleRate: sampleRate)
    }

    /// Creates a time with both a host time and a sample time.
    public convenience init(hostTime: UInt64, sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
        self.init(hostTime: Optional(hostTime), sampleTime: Optional(sampleTime), sampleRate: sampleRate)
    }

    /// Converts seconds to host time (nanoseconds on Linux).
    open class func hostTime(forSeconds seconds: TimeInterval) -> UInt64 {
        seconds <= 0 ? 0 : UInt64((seconds * 1e9).rounded())
    }

    /// Converts host time (nanoseconds on Linux) to seconds.
    open class func seconds(forHostTime hostTime: UInt64) -> TimeInterval {
        Double(hostTime) / 1e9
    }

    /// The current host time (`CLOCK_MONOTONIC`, nanoseconds).
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Fills in whichever of host or sample time this time lacks, from an
    /// anchor that has both; `nil` if neither can be derived.
    open func extrapolateTime(fromAnchor anchorTime: AVAudioTime) -> AVAudioTime? {
        guard anchorTime.isHostTimeValid, anchorTime.isSampleTimeValid, anchorTime.sampleRate > 0 else { return nil }
        let rate = isSampleTimeValid && sampleRate > 0 ? sampleRate : anchorTime.sampleRate
        if isSampleTimeValid && isHostTimeValid { return self }
        if isSampleTimeValid {
            let anchorSamples = Double(anchorTime.sampleTime) * rate / anchorTime.sampleRate
            let deltaSeconds = (Double(sampleTime) - anchorSamples) / rate
            let host = Double(anchorTime.hostTime) + deltaSeconds * 1e9
            return AVAudioTime(hostTime: UInt64(max(0, host.rounded())), sampleTime: sampleTime, atRate: rate)
        }
        if isHostTimeValid {
            let deltaSeconds = (Double(hostTime) - Double(anchorTime.hostTime)) / 1e9
            let samples = Double(anchorTime.sampleTime) + deltaSeconds * anchorTime.sampleRate
            return AVAudioTime(hostTime: hostTime, sampleTime: AVAudioFramePosition(samples.rounded()),
                               atRate: anchorTime.sampleRate)
        }
        return nil
    }

    /// A readable summary of the valid fields.
    open override var description: String {
        let host = isHostTimeValid ? "host \(hostTime)" : "host invalid"
        let sample = isSampleTimeValid ? "sample \(sampleTime) @ \(sampleRate) Hz" : "sample invalid"
        return "<AVAudioTime: \(host), \(sample)>"
    }
}
