import Foundation

/// The decoded form of `TinyModelReference.json` (written by Scripts/reference/tiny_model_reference.py).
struct TinyModelReferenceData: Decodable {
    /// Decoder logits of one token sequence at every position.
    struct Logits: Decodable {
        let tokens: [Int]
        /// The vocabulary ids whose logits are kept.
        let ids: [Int]
        /// `[position][k]`: the logit of `ids[k]`.
        let logits: [[Double]]
        /// Per position, log-sum-exp over the whole vocabulary.
        let logSumExp: [Double]
        let argmax: [Int]
    }

    /// One decode at temperature 0 with the test filter.
    struct Decoding: Decodable {
        struct Ranked: Decodable {
            let tokens: [Int]
            let score: Double
        }
        let beamSize: Int
        let sampleLength: Int
        let lengthPenalty: Double?
        let tokens: [Int]
        let sumLogProbability: Double
        let averageLogProbability: Double
        let noSpeechProbability: Double
        let compressionRatio: Double
        let text: String
        /// Every finalist, best first, with its ranking score.
        let ranked: [Ranked]
    }

    /// Word timing of one text through `find_alignment`.
    struct Alignment: Decodable {
        struct Word: Decodable {
            let word: String
            let start: Double
            let end: Double
            let probability: Double
        }
        let textTokens: [Int]
        let frameCount: Int
        /// `[textTokens.count + 1, frameCount / 2]`, row-major.
        let matrix: [Double]
        let path: [[Int]]
        let words: [Word]
    }

    let allowedTokens: [Int]
    let endOfTextBoost: Float
    let decoder: Logits
    let decoding: [Decoding]
    let alignment: [Alignment]

    private static let loaded = Result {
        try JSONDecoder().decode(TinyModelReferenceData.self, from: Data(TinyModelReference.json.utf8))
    }

    /// The committed reference, decoded once; regenerate it with
    /// Scripts/reference/tiny_model_reference.py if it does not decode.
    static func shared() throws -> TinyModelReferenceData { try loaded.get() }
}
