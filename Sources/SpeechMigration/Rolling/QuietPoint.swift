/// Finds where to cut audio between two legacy tasks: the quietest 20 ms
/// frame in a window, so that no word is split across stretches.
enum QuietPoint {
    /// Samples per analysis frame (20 ms at 16 kHz).
    static let frameSampleCount = 320

    /// The sample index (within `samples`) at the centre of the frame with
    /// the least energy among the frames that lie in `window`; the window's
    /// end when it holds no whole frame.
    static func cutIndex(in samples: [Float], window: Range<Int>) -> Int {
        let lower = max(0, window.lowerBound), upper = min(samples.count, window.upperBound)
        guard upper - lower >= frameSampleCount else { return upper }
        var bestStart = lower
        var bestEnergy = Float.infinity
        var start = lower
        while start + frameSampleCount <= upper {
            var energy: Float = 0
            for index in start..<(start + frameSampleCount) { energy += samples[index] * samples[index] }
            // Prefer the later of equal frames: more audio stays in this stretch.
            if energy <= bestEnergy {
                bestEnergy = energy
                bestStart = start
            }
            start += frameSampleCount / 2
        }
        return bestStart + frameSampleCount / 2
    }
}
