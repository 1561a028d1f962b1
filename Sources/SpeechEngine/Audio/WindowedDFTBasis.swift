import Foundation

/// A real DFT with a symmetric window folded in, split by the symmetry of real input
/// so that a block of frames costs two half-size `cblas_sgemm`s instead of one.
///
/// For a real frame `x` and a window with `w[n] = w[N - n]` (periodic Hann is),
/// `cos(2πk(N-n)/N) = cos(2πkn/N)` and `sin(2πk(N-n)/N) = -sin(2πkn/N)`, so with
/// `even[n] = x[n] + x[N-n]` (`even[0] = x[0]`, `even[N/2] = x[N/2]`) and
/// `odd[n] = x[n] - x[N-n]` (`1 ≤ n < N/2`):
///
///     Re X[k] = Σ_{n=0}^{N/2}   even[n] · w[n] cos(2πkn/N)
///     Im X[k] = Σ_{n=1}^{N/2-1} odd[n] · (-w[n] sin(2πkn/N))
///
/// - Shape: `cosine` is `(N/2 + 1) × binCount` and `sine` is `(N/2 - 1) × binCount`,
///   both row-major, with `binCount = N/2 + 1`.
struct WindowedDFTBasis: Sendable {
    /// Samples per frame (N, even).
    let fftSize: Int
    /// Output bins per frame: `fftSize / 2 + 1`.
    let binCount: Int
    /// Rows of `cosine` (`N/2 + 1`, the even part's length).
    var evenCount: Int { fftSize / 2 + 1 }
    /// Rows of `sine` (`N/2 - 1`, the odd part's length).
    var oddCount: Int { fftSize / 2 - 1 }
    /// `w[n] cos(2πkn/N)` at `[n * binCount + k]`, `0 ≤ n ≤ N/2`.
    let cosine: [Float]
    /// `-w[n] sin(2πkn/N)` at `[(n - 1) * binCount + k]`, `1 ≤ n < N/2`.
    let sine: [Float]

    /// The basis Whisper's STFT uses: n_fft 400 with a periodic Hann window
    /// (`torch.hann_window(400)`, i.e. `0.5 - 0.5 cos(2πn/N)`).
    static let whisper = WindowedDFTBasis(fftSize: 400, window: periodicHann(count: 400))

    /// Builds the basis for `fftSize`-sample frames weighted by a symmetric `window`.
    init(fftSize: Int, window: [Float]) {
        precondition(fftSize >= 4 && fftSize % 2 == 0, "the FFT size must be even")
        precondition(window.count == fftSize, "window length must equal the FFT size")
        let half = fftSize / 2, binCount = half + 1
        func angle(_ k: Int, _ n: Int) -> Double {
            // Reduce k·n mod N first so the angle stays small and exact.
            2.0 * Double.pi * Double((k * n) % fftSize) / Double(fftSize)
        }
        var cosine = [Float](repeating: 0, count: (half + 1) * binCount)
        var sine = [Float](repeating: 0, count: (half - 1) * binCount)
        for n in 0...half {
            for k in 0..<binCount {
                cosine[n * binCount + k] = Float(Double(window[n]) * cos(angle(k, n)))
                if n >= 1 && n < half {
                    sine[(n - 1) * binCount + k] = Float(-Double(window[n]) * sin(angle(k, n)))
                }
            }
        }
        self.fftSize = fftSize
        self.binCount = binCount
        self.cosine = cosine
        self.sine = sine
    }

    /// A periodic Hann window of `count` samples, as `torch.hann_window(count)`.
    static func periodicHann(count: Int) -> [Float] {
        (0..<count).map { Float(0.5 - 0.5 * cos(2.0 * Double.pi * Double($0) / Double(count))) }
    }
}
