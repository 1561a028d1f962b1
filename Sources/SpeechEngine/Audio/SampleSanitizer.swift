/// The one place where audio samples are made safe for the math: every
/// path into the engine (files, buffers, live capture) passes its samples
/// through here before the resampler, the speech detector or the log-mel
/// front end sees them.
///
/// A single NaN or Inf sample poisons everything after it: the resampler's
/// filter smears it over its neighbours, the STFT turns the whole frame
/// into NaN, and the log-mel normalisation (`max - 8`) then spreads NaN over
/// the whole 30 s window, so the decoder reads noise and invents text. The
/// repair is to treat such a sample as silence (0), which is what a player
/// does with a dropped sample, and to clip finite samples to the engine's
/// input range [-1, 1] (a float file may overshoot; a huge value would
/// overflow the power spectrum to Inf).
///
/// Repairing rather than rejecting keeps the rest of a recording usable: a
/// float WAV with a few bad samples transcribes as if those samples were
/// silent, and an all-NaN buffer is silence (no text).
public enum SampleSanitizer {
    /// What a repair changed.
    public struct Report: Sendable, Hashable {
        /// Samples that were NaN or ±Inf and are now 0.
        public var nonFiniteCount = 0
        /// Finite samples outside [-1, 1] that were clipped to the range.
        public var clippedCount = 0

        /// Whether any sample was changed.
        public var changedAnything: Bool { nonFiniteCount > 0 || clippedCount > 0 }
    }

    /// Repairs `samples` in place: NaN and ±Inf become 0, finite values are
    /// clipped to [-1, 1]. Does not copy when nothing needs repair.
    /// - Complexity: O(n); one branch-free pass when every sample is fine.
    @discardableResult
    public static func sanitize(_ samples: inout [Float]) -> Report {
        guard needsRepair(samples) else { return Report() }
        var report = Report()
        samples.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices {
                let value = buffer[index]
                if !value.isFinite {
                    buffer[index] = 0
                    report.nonFiniteCount += 1
                } else if value > 1 || value < -1 {
                    buffer[index] = value > 1 ? 1 : -1
                    report.clippedCount += 1
                }
            }
        }
        return report
    }

    /// A repaired copy of `samples` (the same array when nothing needs repair).
    public static func sanitized(_ samples: [Float]) -> [Float] {
        var copy = samples
        sanitize(&copy)
        return copy
    }

    /// Whether any sample is non-finite or outside [-1, 1]. NaN fails every
    /// comparison, so `!(|x| <= 1)` catches it together with Inf and overshoot.
    public static func needsRepair(_ samples: [Float]) -> Bool {
        samples.withUnsafeBufferPointer { buffer in
            var badCount = 0
            for value in buffer { badCount &+= abs(value) <= 1 ? 0 : 1 }
            return badCount > 0
        }
    }
}
