/// What decoding one window produced.
struct DecodingResult: Sendable {
    /// Sampled tokens (text and timestamps), without the prompt and end-of-text.
    var tokens: [Int]
    var sumLogProbability: Double
    /// ref: whisper/decoding.py — `sum_logprob / (len(tokens) + 1)`.
    var averageLogProbability: Double
    /// Probability of `<|nospeech|>` at the start-of-transcript position.
    var noSpeechProbability: Double
    var temperature: Double
    /// gzip-style compression ratio of the decoded text (high = repetitive).
    var compressionRatio: Double
    /// Other finished beams or samples, best first, with their ranking scores.
    var alternatives: [(tokens: [Int], score: Double)]
}
