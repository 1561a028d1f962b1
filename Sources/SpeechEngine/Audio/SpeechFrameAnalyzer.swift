import CBLAS
import Foundation

/// Per-frame features for speech detection: band level and spectral flatness.
///
/// Each frame is Hann-windowed and projected onto the DFT bins of the speech band
/// (by default 100–4000 Hz) with one `cblas_sgemm` per batch of frames.
/// - `levelDB`: mean-square level of the band content in dBFS (a full-scale sine in
///   the band reads about -3 dB), from the windowed power via Parseval.
/// - `flatness`: geometric over arithmetic mean of the band's power spectrum, in (0, 1].
///   White noise reads ~0.56; voiced speech is far below (energy at harmonics).
struct SpeechFrameAnalyzer: Sendable {
    /// One frame's features.
    struct Features: Sendable, Equatable {
        /// Band level in dBFS (mean square of the band-limited signal).
        var levelDB: Float
        /// Spectral flatness of the band, 0 (tonal) to 1 (flat).
        var flatness: Float
    }

    /// Samples per frame.
    let frameSampleCount: Int
    /// DFT bins in the band (columns of the basis: cosines, then sines).
    let bandBinCount: Int
    /// Row-major `frameSampleCount × (2 · bandBinCount)`, window folded in.
    private let basis: [Float]
    /// Converts a band power sum to mean square: `2 / (N² · mean(w²))`.
    private let powerScale: Float

    /// Builds the analyzer for `frameSampleCount`-sample frames at `sampleRate`, over
    /// the DFT bins whose frequencies lie in `bandHz`.
    init(frameSampleCount: Int, sampleRate: Double, bandHz: ClosedRange<Double>) {
        ComputeThreads.prepare()
        precondition(frameSampleCount >= 16, "frames must hold at least 16 samples")
        let binHz = sampleRate / Double(frameSampleCount)
        let lowBin = max(1, Int((bandHz.lowerBound / binHz).rounded(.up)))
        let highBin = min(frameSampleCount / 2 - 1, Int((bandHz.upperBound / binHz).rounded(.down)))
        precondition(highBin >= lowBin, "the speech band holds no DFT bin")
        let bins = Array(lowBin...highBin)
        let window = WindowedDFTBasis.periodicHann(count: frameSampleCount)
        let columns = 2 * bins.count
        var basis = [Float](repeating: 0, count: frameSampleCount * columns)
        for n in 0..<frameSampleCount {
            for (column, bin) in bins.enumerated() {
                let angle = 2 * Double.pi * Double((bin * n) % frameSampleCount) / Double(frameSampleCount)
                basis[n * columns + column] = window[n] * Float(cos(angle))
                basis[n * columns + bins.count + column] = -window[n] * Float(sin(angle))
            }
        }
        let meanSquareWindow = window.reduce(0) { $0 + Double($1) * Double($1) } / Double(frameSampleCount)
        self.frameSampleCount = frameSampleCount
        self.bandBinCount = bins.count
        self.basis = basis
        self.powerScale = Float(2 / (Double(frameSampleCount * frameSampleCount) * meanSquareWindow))
    }

    /// Features of `frameCount` consecutive frames stored contiguously in `samples`.
    func analyse(_ samples: UnsafeBufferPointer<Float>, frameCount: Int) -> [Features] {
        guard frameCount > 0 else { return [] }
        precondition(samples.count >= frameCount * frameSampleCount, "not enough samples for the frames")
        let columns = 2 * bandBinCount
        var spectrum = [Float](repeating: 0, count: frameCount * columns)
        BLAS.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans,
                    Int32(frameCount), Int32(columns), Int32(frameSampleCount), 1,
                    samples.baseAddress, Int32(frameSampleCount), basis, Int32(columns),
                    0, &spectrum, Int32(columns))
        return (0..<frameCount).map { frame in
            var sum: Double = 0, logSum: Double = 0
            for bin in 0..<bandBinCount {
                let re = spectrum[frame * columns + bin], im = spectrum[frame * columns + bandBinCount + bin]
                let power = Double(re * re + im * im) + 1e-20
                sum += power
                logSum += log(power)
            }
            let mean = sum / Double(bandBinCount)
            let flatness = exp(logSum / Double(bandBinCount)) / mean
            let meanSquare = max(Double(powerScale) * sum, 1e-14)
            return Features(levelDB: Float(10 * log10(meanSquare)), flatness: Float(min(1, flatness)))
        }
    }
}
