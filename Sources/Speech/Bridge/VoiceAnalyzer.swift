import Foundation

/// Per-frame voice features of a request's audio: pitch, voicing, jitter and
/// shimmer, for `SFVoiceAnalytics`.
///
/// A normalized-autocorrelation pitch tracker over 16 kHz mono audio,
/// decimated to 8 kHz: 10 ms frames, a 40 ms analysis window, fundamental
/// frequencies from 60 to 400 Hz.
///
/// Frames are analysed as the audio for them arrives, and only the audio the
/// next frame still reads is kept: a rolling task runs for hours, and keeping
/// the whole stream's audio here grew the process by about 2 MB a minute
/// (Benchmarks/RESULTS.md, the soak). The features themselves stay — four
/// numbers per 10 ms, about 11 MB an hour — because the final result carries
/// the analytics of every segment.
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

        var count: Int { voicing.count }

        /// Frames `range` of these, with `tail` (frames after these) continuing them.
        func slice(_ range: Range<Int>, continuedBy tail: Frames) -> Frames {
            let own = range.clamped(to: 0..<count)
            let theirs = (range.lowerBound - count)..<(range.upperBound - count)
            let rest = theirs.clamped(to: 0..<tail.count)
            return Frames(logPitch: Array(logPitch[own] + tail.logPitch[rest]),
                          voicing: Array(voicing[own] + tail.voicing[rest]),
                          jitter: Array(jitter[own] + tail.jitter[rest]),
                          shimmer: Array(shimmer[own] + tail.shimmer[rest]))
        }
    }

    /// Seconds per frame.
    static let frameDurationSeconds = 0.01
    private static let rate = 8_000.0
    private static let hop = 80
    private static let window = 320
    private static let minimumLag = 20    // 400 Hz
    private static let maximumLag = 133   // 60 Hz
    /// 8 kHz samples one frame reads: its window and the longest lag past it.
    private static let span = window + maximumLag
    private static let voicedThreshold = 0.45
    private static let silenceAmplitude: Float = 1e-3

    private let lock = NSLock()
    /// 8 kHz audio from `pendingStart` on: what frames not analysed yet read.
    private var pending: [Float] = []
    /// Index in the whole decimated stream of `pending[0]`.
    private var pendingStart = 0
    private var pendingOddSample: Float?
    /// Features of every frame whose whole span has arrived.
    private var frames = Frames()
    private var previousVoiced: (period: Double, amplitude: Double)?
    /// The frames after `frames` that the audio so far reaches only in part,
    /// analysed on what exists when features are asked for; nil once more
    /// audio arrives.
    private var provisionalTail: Frames?

    /// Keeps 16 kHz mono samples following the ones already appended, and
    /// analyses each frame whose audio is now complete.
    func append(_ samples: [Float]) {
        lock.withLock {
            provisionalTail = nil
            var index = 0
            if let odd = pendingOddSample, !samples.isEmpty {
                pending.append((odd + samples[0]) / 2)
                pendingOddSample = nil
                index = 1
            }
            while index + 1 < samples.count {
                pending.append((samples[index] + samples[index + 1]) / 2)
                index += 2
            }
            if index < samples.count { pendingOddSample = samples[index] }
            analyzeCompleteFrames()
        }
    }

    /// 8 kHz samples held for frames not analysed yet: at most one frame's
    /// span and one append's audio, however long the stream (the soak's bound).
    var retainedSampleCount: Int {
        lock.withLock { pending.count }
    }

    /// The features of frames overlapping `[startSeconds, endSeconds)`.
    func frames(from startSeconds: Double, to endSeconds: Double) -> Frames {
        lock.withLock {
            let tail = provisionalTail ?? analyzeProvisionalTail()
            provisionalTail = tail
            let count = frames.count + tail.count
            let first = min(count, max(0, Int((startSeconds / Self.frameDurationSeconds).rounded(.down))))
            let last = min(count, max(first, Int((endSeconds / Self.frameDurationSeconds).rounded(.up))))
            return frames.slice(first..<last, continuedBy: tail)
        }
    }

    /// Analyses every frame whose span has arrived, then drops the audio no
    /// later frame reads.
    private func analyzeCompleteFrames() {
        var frameStart = frames.count * Self.hop - pendingStart
        while frameStart + Self.span <= pending.count {
            analyzeFrame(start: frameStart, length: Self.span, into: &frames, previous: &previousVoiced)
            frameStart += Self.hop
        }
        if frameStart > 0 {
            pending.removeFirst(frameStart)
            pendingStart += frameStart
        }
    }

    /// The frames that start in the audio so far but whose span reaches past
    /// it, analysed on the audio there is (features are asked for at the end
    /// of a stream, so the last frames use what exists).
    private func analyzeProvisionalTail() -> Frames {
        var tail = Frames()
        var previous = previousVoiced
        var frameStart = frames.count * Self.hop - pendingStart
        while frameStart + Self.hop <= pending.count {
            analyzeFrame(start: frameStart, length: min(Self.span, pending.count - frameStart), into: &tail, previous: &previous)
            frameStart += Self.hop
        }
        return tail
    }

    private func analyzeFrame(start: Int, length: Int, into frames: inout Frames,
                              previous previousVoiced: inout (period: Double, amplitude: Double)?) {
        let (period, periodicity, amplitude) = pending.withUnsafeBufferPointer { buffer in
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
