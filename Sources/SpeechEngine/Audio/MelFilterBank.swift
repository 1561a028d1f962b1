import Foundation

/// Slaney-style triangular mel filters, as `librosa.filters.mel(sr:, n_fft:, n_mels:)`
/// builds them with its defaults (`htk=False`, `norm="slaney"`, `fmin=0`, `fmax=sr/2`).
///
/// Whisper ships these filters precomputed in `mel_filters.npz`; this type computes
/// the same values from the formula, so that 80- and 128-bin models both work.
///
/// ref: openai/whisper `whisper/audio.py` `mel_filters` (librosa.filters.mel(sr=16000, n_fft=400, n_mels=n_mels)).
///
/// - Shape: `weights` is `melCount × binCount`, row-major (`weights[mel * binCount + bin]`),
///   with `binCount = fftSize / 2 + 1`.
public struct MelFilterBank: Sendable {
    /// Number of mel bands (rows).
    public let melCount: Int
    /// Number of FFT bins (columns): `fftSize / 2 + 1`.
    public let binCount: Int
    /// The filter weights, row-major `melCount × binCount`.
    public let weights: [Float]

    /// Builds the filter bank.
    ///
    /// - Parameters:
    ///   - melCount: number of mel bands (Whisper uses 80, large-v3 uses 128).
    ///   - fftSize: the FFT length in samples (Whisper: 400).
    ///   - sampleRate: the sample rate in Hz (Whisper: 16 000).
    public init(melCount: Int = 80, fftSize: Int = 400, sampleRate: Double = Transcriber.sampleRate) {
        precondition(melCount > 0 && fftSize > 1 && sampleRate > 0, "invalid mel filter bank shape")
        self.melCount = melCount
        self.binCount = fftSize / 2 + 1
        self.weights = Self.slaneyWeights(melCount: melCount, binCount: fftSize / 2 + 1,
                                          fftSize: fftSize, sampleRate: sampleRate)
    }

    /// The weight of FFT bin `bin` in mel band `mel`.
    public func weight(mel: Int, bin: Int) -> Float {
        weights[mel * binCount + bin]
    }

    // MARK: - Slaney mel scale (librosa `hz_to_mel` / `mel_to_hz` with htk=False)

    private static let linearStepHz = 200.0 / 3.0
    private static let logStartHz = 1_000.0
    private static let logStartMel = logStartHz / linearStepHz  // 15
    private static let logStepPerMel = log(6.4) / 27.0

    /// Hertz to Slaney mels: linear below 1 kHz, logarithmic above.
    static func mel(fromHz hz: Double) -> Double {
        if hz < logStartHz { return hz / linearStepHz }
        return logStartMel + log(hz / logStartHz) / logStepPerMel
    }

    /// Slaney mels to Hertz (the inverse of `mel(fromHz:)`).
    static func hz(fromMel mel: Double) -> Double {
        if mel < logStartMel { return mel * linearStepHz }
        return logStartHz * exp(logStepPerMel * (mel - logStartMel))
    }

    /// ref: librosa `filters.mel`: triangles between `melCount + 2` mel-spaced centre
    /// frequencies, each scaled by `2 / (upper - lower)` (Slaney area normalisation).
    /// Computed in Double, stored as Float like librosa's float32 output.
    private static func slaneyWeights(melCount: Int, binCount: Int, fftSize: Int,
                                      sampleRate: Double) -> [Float] {
        let nyquist = sampleRate / 2
        let binHz = (0..<binCount).map { sampleRate * Double($0) / Double(fftSize) }  // np.fft.rfftfreq
        let lowMel = mel(fromHz: 0), highMel = mel(fromHz: nyquist)
        let edgesHz = (0..<(melCount + 2)).map { index in
            hz(fromMel: lowMel + (highMel - lowMel) * Double(index) / Double(melCount + 1))
        }
        var weights = [Float](repeating: 0, count: melCount * binCount)
        for mel in 0..<melCount {
            let lower = edgesHz[mel], centre = edgesHz[mel + 1], upper = edgesHz[mel + 2]
            let norm = 2.0 / (upper - lower)
            for bin in 0..<binCount {
                let rising = (binHz[bin] - lower) / (centre - lower)
                let falling = (upper - binHz[bin]) / (upper - centre)
                let triangle = max(0, min(rising, falling))
                weights[mel * binCount + bin] = Float(triangle * norm)
            }
        }
        return weights
    }
}
