import Foundation

/// Per-frame voice features of a request's audio: pitch, voicing, jitter and
/// shimmer, for `SFVoiceAnalytics`.
///
/// A normalized-autocorrelation pitch tracker over 16 kHz mono audio,
/// decimated to 8 kHz: 10 ms frames, a 40 ms analysis window, fundamental
/// frequencies from 60 to 400 Hz. Audio is kept as it arrives and analysed
/// lazily, when a final result asks for features.
/// - Shape: one value per 10 ms frame for each feature; frame `i` starts at
///   `i * frameDurationSeconds` seconds from the start of the stream.
final class VoiceAnalyzer: @unchecked Sendable {
    // @unchecked: all state is behind `lock`.

    /// Features of a stretch of audio, one value per frame.
    struct Frames: Sendable, Equatable {
        /// Natural log of F0 in Hz, 0 when unvoiced.
        var logPitch: [Double] = []
        /// Periodicity in [0, 1].
        var voicing: [Double] = []
        /// Period change from the previous voiced frame, percent of the period.
        var jitter: [Double] = []
        /// Peak-amplitude change from the previous voiced frame, dB.
        var shimmer: [Double] = []
    }

    /// Seconds per frame.
    static let frameDurationSeconds = 0.01
    private static let rate = 8_000.0
    private static let hop = 80
    private static let window = 320
    private static let minimumLag = 20    // 400 Hz
    private static let maximumLag = 133   // 60 Hz
    private static let voicedThreshold = 0.45
    private static let silenceAmplitude: Float = 1e-3

    private let lock = NSLock()
    private var decimated: [Float] = []
    private var pendingOddSample: Float?
    private var frames = Frames()
    private var previousVoiced: (period: Double, amplitude: Double)?

    /// Keeps 16 kHz mono samples following the ones already appended.
    func append(_ samples: [Float]) {
        lock.withLock {
            var index = 0
            if let odd = pendingOddSample, !samples.isEmpty {
                decimated.append((odd + samples[0]) / 2)
                pendingOddSample = nil
                index = 1
            }
            decimated.reserveCapacity(decimated.count + samples.count / 2)
            while index + 1 < samples.count {
                decimated.append((samples[index] + samples[index + 1]) / 2)
                index += 2
            }
            if index < samples.count { pendingOddSample = samples[index] }
        }
    }

    /// Seconds of audio appended so far.
    var durationSeconds: Double {
        lock.withLock { Double(decimated.count) / Self.rate }
    }

    /// The features of frames overlapping `[startSeconds, endSeconds)`.
    func frames(from startSeconds: Double, to endSeconds: Double) -> Frames {
        lock.withLock {
            analyzeAvailableFrames()
            let count = frames.voicing.count
            let first = min(count, max(0, Int((startSeconds / Self.frameDurationSeconds).rounded(.down))))
            let last = min(count, max(first, Int((endSeconds / Self.frameDurationSeconds).rounded(.up))))
            return Frames(logPitch: Array(frames.logPitch[first..<last]), voicing: Array(frames.voicing[first..<last]),
                          jitter: Array(frames.jitter[first..<last]), shimmer: Array(frames.shimmer[first..<last]))
        }
    }

    /// Analyses every whole frame not analysed yet. Features are asked for at
    /// the end of a stream, so the last frames use what audio exists.
    private func analyzeAvailableFrames() {
        let span = Self.window + Self.maximumLag
        var frameIndex = frames.voicing.count
        while frameIndex * Self.hop + Self.hop <= decimated.count {
            let start = frameIndex * Self.hop
            analyzeFrame(start: start, length: min(span, decimated.count - start))
            frameIndex += 1
        }
    }

    private func analyzeFrame(start: Int, length: Int) {
        let (period, periodicity, amplitude) = decimated.withUnsafeBufferPointer { buffer in
            Self.pitch(in: UnsafeBufferPointer(rebasing: buffer[start..<(start + length)]))
        }
        let voiced = period != nil && periodicity >= Self.voicedThreshold && amplitude >= Double(Self.silenceAmplitude)
        frames.voicing.append(max(0, min(1, periodicity)))
        guard voiced, let period else {
            frames.logPitch.append(0)
            frames.jitter.append(0)
            frames.shimmer.append(0)
            previousVoiced = nil
            return
        }
        frames.logPitch.append(log(Self.rate / period))
        if let previous = previousVoiced {
            frames.jitter.append(abs(period - previous.period) / ((period + previous.period) / 2) * 100)
            frames.shimmer.append(abs(20 * log10(amplitude / previous.amplitude)))
        } else {
            frames.jitter.append(0)
            frames.shimmer.append(0)
        }
        previousVoiced = (period, amplitude)
    }

    /// The best pitch period (in 8 kHz samples, refined by parabolic
    /// interpolation), its normalized autocorrelation and the frame's peak.
    static func pitch(in samples: UnsafeBufferPointer<Float>) -> (period: Double?, periodicity: Double, amplitude: Double) {
        let windowLength = min(window, samples.count - minimumLag - 1)
        guard windowLength > minimumLag else { return (nil, 0, 0) }
        var peak: Float = 0
        for index in 0..<windowLength { peak = max(peak, abs(samples[index])) }
        let lastLag = min(maximumLag, samples.count - windowLength)
        guard lastLag > minimumLag + 1 else { return (nil, 0, Double(peak)) }
        var correlations = [Double](repeating: 0, count: lastLag + 2)
        var energy0: Float = 0
        for index in 0..<windowLength { energy0 += samples[index] * samples[index] }
        guard energy0 > 0 else { return (nil, 0, 0) }
        for lag in (minimumLag - 1)...lastLag {
            var cross: Float = 0
            var energyLag: Float = 0
            for index in 0..<windowLength {
                let shifted = samples[index + lag]
                cross += samples[index] * shifted
                energyLag += shifted * shifted
            }
            correlations[lag] = energyLag > 0 ? Double(cross / (energy0 * energyLag).squareRoot()) : 0
        }
        var best = minimumLag
        for lag in minimumLag...(lastLag - 1) where correlations[lag] > correlations[best] { best = lag }
        // Prefer the shortest period close to the best one: avoids octave-down errors.
        for lag in minimumLag...(lastLag - 1) where correlations[lag] >= 0.9 * correlations[best]
            && correlations[lag] >= correlations[lag - 1] && correlations[lag] >= correlations[lag + 1] {
            best = lag
            break
        }
        let (left, middle, right) = (correlations[best - 1], correlations[best], correlations[best + 1])
        let curvature = left - 2 * middle + right
        let offset = curvature < 0 ? max(-0.5, min(0.5, 0.5 * (left - right) / curvature)) : 0
        return (Double(best) + offset, middle, Double(peak))
    }
}
