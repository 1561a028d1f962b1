import CBLAS
import Foundation

/// Whisper's log-mel front end: 16 kHz mono samples in, normalised log-mel frames out.
///
/// Computes `whisper.audio.log_mel_spectrogram(audio, n_mels, padding)` exactly:
/// 1. append `paddingSamples` zeros;
/// 2. STFT with n_fft 400, hop 160, periodic Hann window, `center=True` (reflect
///    padding of 200 samples on each side), keeping `|X|²`, dropping the last frame;
/// 3. project onto Slaney mel filters (`MelFilterBank`);
/// 4. `log10(max(x, 1e-10))`, then `max(x, globalMax - 8)`, then `(x + 4) / 4`.
///
/// ref: openai/whisper `whisper/audio.py` `log_mel_spectrogram`.
///
/// The STFT is a GEMM against a precomputed windowed DFT basis. Real input makes the
/// 400 × 402 basis redundant: folding each frame into its even and odd halves turns
/// it into two half-size sgemms (`frames × 201 · 201 × 201` for the real parts,
/// `frames × 199 · 199 × 201` for the imaginary parts; see `WindowedDFTBasis`). The mel
/// projection is a third sgemm that writes mel-major output directly. Work goes in
/// blocks of `blockFrameCount` frames so scratch memory stays small for long audio.
/// Measured (release, 1 OpenBLAS thread, 2-core EPYC): 30 s of audio in ~9.5 ms, of
/// which ~5 ms is sgemm; the rest is page faults on fresh buffers and `log10`.
public struct LogMelSpectrogram: Sendable {
    /// The sample rate the front end expects, in Hz.
    public static let sampleRate = Transcriber.sampleRate
    /// FFT length in samples (25 ms).
    public static let fftSize = 400
    /// Hop between frames in samples (10 ms).
    public static let hopLength = 160
    /// Frames in one 30 s Whisper window (`N_FRAMES`).
    public static let windowFrameCount = 3_000
    /// Samples in one 30 s Whisper window (`N_SAMPLES`).
    public static let windowSampleCount = 480_000

    /// Number of mel bands produced.
    public let melCount: Int
    /// The mel filters used for the projection.
    public let filterBank: MelFilterBank
    private let basis: WindowedDFTBasis
    private let blockFrameCount = 1_024

    /// Creates a front end with `melCount` bands (80, or 128 for large-v3).
    public init(melCount: Int = 80) {
        ComputeThreads.prepare()
        self.melCount = melCount
        self.filterBank = MelFilterBank(melCount: melCount, fftSize: Self.fftSize,
                                        sampleRate: Self.sampleRate)
        self.basis = WindowedDFTBasis.whisper
    }

    /// The normalised log-mel spectrogram of `samples` (16 kHz mono) followed by
    /// `paddingSamples` zeros.
    ///
    /// - Shape: `frameCount = (samples.count + paddingSamples) / 160`; an input shorter
    ///   than one hop gives zero frames.
    public func compute(_ samples: [Float], paddingSamples: Int = 0) -> MelSpectrogram {
        precondition(paddingSamples >= 0, "padding must not be negative")
        let total = samples.count + paddingSamples
        let frameCount = total / Self.hopLength  // 1 + total/hop frames, minus the dropped last one
        guard frameCount > 0 else {
            return MelSpectrogram(melCount: melCount, frameCount: 0, values: [])
        }
        // With at least n_fft zeros of padding, frames that start past the samples see
        // only zeros (the right reflection mirrors zeros too): their power is exactly 0,
        // so only the frames touching samples go through the GEMMs.
        let pad = Self.fftSize / 2
        let skipsSilentTail = paddingSamples >= Self.fftSize
        let activeFrameCount = skipsSilentTail
            ? min(frameCount, (samples.count + pad + Self.hopLength - 1) / Self.hopLength) : frameCount
        let padded = Self.reflectPadded(samples, totalCount: skipsSilentTail ? samples.count + Self.fftSize : total,
                                        pad: pad)
        var mel = [Float](repeating: 0, count: melCount * frameCount)
        melPower(padded: padded, activeFrameCount: activeFrameCount, frameCount: frameCount, into: &mel)
        Self.normaliseLog(&mel)
        return MelSpectrogram(melCount: melCount, frameCount: frameCount, values: mel)
    }

    /// Fills the first `activeFrameCount` columns of `mel` (mel-major, `melCount × frameCount`)
    /// with mel-filtered power; the other columns stay 0.
    private func melPower(padded: [Float], activeFrameCount: Int, frameCount: Int, into mel: inout [Float]) {
        let binCount = basis.binCount, evenCount = basis.evenCount, oddCount = basis.oddCount
        let block = max(1, min(blockFrameCount, activeFrameCount))
        var even = [Float](repeating: 0, count: block * evenCount)
        var odd = [Float](repeating: 0, count: block * oddCount)
        var spectrum = [Float](repeating: 0, count: block * 2 * binCount)  // [re | im] per row
        var power = [Float](repeating: 0, count: block * binCount)
        padded.withUnsafeBufferPointer { signal in
            mel.withUnsafeMutableBufferPointer { output in
                var start = 0
                while start < activeFrameCount {
                    let rows = min(block, activeFrameCount - start)
                    fold(signal.baseAddress! + start * Self.hopLength, rows: rows, even: &even, odd: &odd)
                    spectrumOfFolded(rows: rows, even: even, odd: odd, into: &spectrum)
                    spectrum.withUnsafeBufferPointer { spectrumRows in
                        power.withUnsafeMutableBufferPointer { powerRows in
                            for row in 0..<rows {
                                let re = spectrumRows.baseAddress! + row * 2 * binCount
                                let im = re + binCount
                                let target = powerRows.baseAddress! + row * binCount
                                for bin in 0..<binCount { target[bin] = re[bin] * re[bin] + im[bin] * im[bin] }
                            }
                        }
                    }
                    // mel[:, start..<start+rows] (melCount × rows) = filters (melCount × 201) · powerᵀ
                    BLAS.sgemm(CblasRowMajor, CblasNoTrans, CblasTrans,
                                Int32(melCount), Int32(rows), Int32(binCount), 1,
                                filterBank.weights, Int32(binCount), power, Int32(binCount),
                                0, output.baseAddress! + start, Int32(frameCount))
                    start += rows
                }
            }
        }
    }

    /// Splits `rows` frames (hop 160 apart from `first`) into their even and odd parts
    /// (see `WindowedDFTBasis`).
    private func fold(_ first: UnsafePointer<Float>, rows: Int, even: inout [Float], odd: inout [Float]) {
        let size = basis.fftSize, half = size / 2, evenCount = basis.evenCount, oddCount = basis.oddCount
        even.withUnsafeMutableBufferPointer { evenRows in
            odd.withUnsafeMutableBufferPointer { oddRows in
                for row in 0..<rows {
                    let frame = first + row * Self.hopLength
                    let evenRow = evenRows.baseAddress! + row * evenCount
                    let oddRow = oddRows.baseAddress! + row * oddCount
                    evenRow[0] = frame[0]
                    evenRow[half] = frame[half]
                    for n in 1..<half {
                        let a = frame[n], b = frame[size - n]
                        evenRow[n] = a + b
                        oddRow[n - 1] = a - b
                    }
                }
            }
        }
    }

    /// `spectrum[row] = [Re X | Im X]` from the folded frames: two sgemms,
    /// `even (rows × 201) · cosine (201 × 201)` and `odd (rows × 199) · sine (199 × 201)`.
    private func spectrumOfFolded(rows: Int, even: [Float], odd: [Float], into spectrum: inout [Float]) {
        let binCount = basis.binCount, columns = 2 * binCount
        spectrum.withUnsafeMutableBufferPointer { target in
            BLAS.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans,
                        Int32(rows), Int32(binCount), Int32(basis.evenCount), 1,
                        even, Int32(basis.evenCount), basis.cosine, Int32(binCount),
                        0, target.baseAddress, Int32(columns))
            BLAS.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans,
                        Int32(rows), Int32(binCount), Int32(basis.oddCount), 1,
                        odd, Int32(basis.oddCount), basis.sine, Int32(binCount),
                        0, target.baseAddress! + binCount, Int32(columns))
        }
    }

    /// `samples` followed by zeros up to `totalCount`, reflect-padded by `pad` on both
    /// sides like `torch.stft(center=True, pad_mode="reflect")`. Signals shorter than
    /// the pad (which torch rejects) keep bouncing between their ends.
    static func reflectPadded(_ samples: [Float], totalCount: Int, pad: Int) -> [Float] {
        var padded = [Float](repeating: 0, count: totalCount + 2 * pad)
        padded.withUnsafeMutableBufferPointer { target in
            samples.withUnsafeBufferPointer { source in
                if let base = source.baseAddress, !source.isEmpty {
                    (target.baseAddress! + pad).update(from: base, count: source.count)
                }
            }
        }
        guard totalCount > 1 else {
            if totalCount == 1 { for index in padded.indices { padded[index] = padded[pad] } }
            return padded
        }
        let period = 2 * (totalCount - 1)
        func reflected(_ position: Int) -> Int {
            var index = position % period
            if index < 0 { index += period }
            return index < totalCount ? index : period - index
        }
        for offset in 0..<pad {
            padded[offset] = padded[pad + reflected(offset - pad)]
            padded[pad + totalCount + offset] = padded[pad + reflected(totalCount + offset)]
        }
        return padded
    }

    /// `log10(max(x, 1e-10))`, clamp to `globalMax - 8`, then `(x + 4) / 4`, in place.
    static func normaliseLog(_ values: inout [Float]) {
        var globalMax = -Float.infinity
        for index in values.indices {
            let logValue = log10(max(values[index], 1e-10))
            values[index] = logValue
            globalMax = max(globalMax, logValue)
        }
        let floor = globalMax - 8
        for index in values.indices {
            values[index] = (max(values[index], floor) + 4) / 4
        }
    }
}
