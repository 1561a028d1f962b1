import Foundation

/// A real DFT with a window folded in, laid out so that a block of frames times
/// the basis is one `cblas_sgemm`.
///
/// Column `k` holds `window[n] * cos(2πkn/N)` and column `binCount + k` holds
/// `-window[n] * sin(2πkn/N)`, so `frames (T × N) · basis (N × 2·binCount)` gives the
/// real parts then the imaginary parts of every frame's spectrum.
///
/// - Shape: `values` is `fftSize × (2 · binCount)`, row-major, `binCount = fftSize / 2 + 1`.
struct WindowedDFTBasis: Sendable {
    /// Samples per frame (N).
    let fftSize: Int
    /// Output bins per frame: `fftSize / 2 + 1`.
    let binCount: Int
    /// Row-major `fftSize × (2 · binCount)` basis.
    let values: [Float]

    /// The basis Whisper's STFT uses: n_fft 400 with a periodic Hann window
    /// (`torch.hann_window(400)`, i.e. `0.5 - 0.5 cos(2πn/N)`).
    static let whisper = WindowedDFTBasis(fftSize: 400, window: periodicHann(count: 400))

    /// Builds the basis for `fftSize`-sample frames weighted by `window`.
    init(fftSize: Int, window: [Float]) {
        precondition(window.count == fftSize, "window length must equal the FFT size")
        let binCount = fftSize / 2 + 1
        let columns = 2 * binCount
        var values = [Float](repeating: 0, count: fftSize * columns)
        for n in 0..<fftSize {
            let weight = Double(window[n])
            for k in 0..<binCount {
                // Reduce k·n mod N first so the angle stays small and exact.
                let angle = 2.0 * Double.pi * Double((k * n) % fftSize) / Double(fftSize)
                values[n * columns + k] = Float(weight * cos(angle))
                values[n * columns + binCount + k] = Float(-weight * sin(angle))
            }
        }
        self.fftSize = fftSize
        self.binCount = binCount
        self.values = values
    }

    /// A periodic Hann window of `count` samples, as `torch.hann_window(count)`.
    static func periodicHann(count: Int) -> [Float] {
        (0..<count).map { Float(0.5 - 0.5 * cos(2.0 * Double.pi * Double($0) / Double(count))) }
    }
}
