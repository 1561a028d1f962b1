import Foundation

/// The decoded form of `LogMelReference.json` (written by Scripts/reference/log_mel_reference.py).
struct LogMelReferenceData: Decodable {
    /// Nonzero Slaney filter weights and per-band sums.
    struct Filters: Decodable {
        let melCount: Int
        let binCount: Int
        let rowSums: [Double]
        /// `[mel, bin, weight]` triples.
        let nonzero: [[Double]]
    }

    /// Selected frames of one log-mel computation.
    struct Spectrogram: Decodable {
        let paddingSamples: Int
        let frameCount: Int
        let globalMax: Double
        /// Frame index (as a string) → 80 normalised log-mel values.
        let frames: [String: [Double]]
    }

    let clip: String
    let sampleCount: Int
    let filters: Filters
    let unpadded: Spectrogram
    let padded: Spectrogram

    /// The committed reference.
    static func load() throws -> LogMelReferenceData {
        try JSONDecoder().decode(LogMelReferenceData.self, from: Data(LogMelReference.json.utf8))
    }
}
