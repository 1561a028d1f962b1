import Foundation
import Testing

/// The decoded form of `DecodingReference.json` (written by Scripts/reference/decoding_reference.py).
struct DecodingReferenceData: Decodable {
    /// Logits of a multilingual vocabulary, all `fill` except `overrides`,
    /// after the named filters; `finiteRanges` are the `[start, end)` runs left finite.
    struct LogitRuleCase: Decodable, CustomTestStringConvertible {
        let name: String
        let filters: [String]
        let fill: Float
        /// `[token, logit]` pairs.
        let overrides: [[Double]]
        let prompt: [Int]
        let sampled: [Int]
        let maxInitialTimestampIndex: Int
        /// What `SuppressBlank` is given (`" "` and end-of-text).
        let blankTokens: [Int]
        /// What `SuppressTokens` is given.
        let suppressedTokens: [Int]
        let finiteRanges: [[Int]]
        var testDescription: String { name }
    }

    /// One beam-search step: the log-probability rows given and what the reference kept.
    struct BeamStep: Decodable {
        /// `[beamSize, vocabulary]`, row-major.
        let logProbabilities: [Float]
        let next: [[Int]]
        let sources: [Int]
        let nextSums: [Double]
        /// `[tokens, sum]` pairs, sorted by tokens.
        let finished: [FinishedSequence]
        let complete: Bool
    }

    /// A `[tokens, sumLogProbability]` pair as the generator writes it.
    struct FinishedSequence: Decodable {
        let tokens: [Int]
        let sum: Double

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            tokens = try container.decode([Int].self)
            sum = try container.decode(Double.self)
        }
    }

    /// The reference ranker's scores with one length-penalty setting.
    struct Ranking: Decodable {
        struct Scored: Decodable {
            let tokens: [Int]
            let sumLogProbability: Double
            let score: Double
        }
        let scored: [Scored]
        /// Index into `scored` of the winner.
        let best: Int
    }

    struct BeamCase: Decodable, CustomTestStringConvertible {
        let name: String
        let beamSize: Int
        let vocabulary: Int
        let endOfText: Int
        let prompt: [Int]
        let steps: [BeamStep]
        /// Finished sequences, then unfinished ones with end-of-text appended (as the reference does).
        let finalists: [FinishedSequence]
        /// Keyed `"none"` (length normalisation), `"1.0"`, `"0.6"` (length penalty).
        let rankings: [String: Ranking]
        var testDescription: String { name }
    }

    struct SegmentCase: Decodable, CustomTestStringConvertible {
        struct Piece: Decodable {
            let start: Double
            let end: Double
            let tokens: [Int]
        }
        let name: String
        let tokens: [Int]
        let windowFrames: Int
        let pieces: [Piece]
        let seekFrames: Int
        var testDescription: String { name }
    }

    struct DTWCase: Decodable, CustomTestStringConvertible {
        let name: String
        let rows: Int
        let columns: Int
        /// `[rows, columns]`, row-major.
        let cost: [Float]
        /// `[row, column]` pairs from the first cell to the last.
        let path: [[Int]]
        var testDescription: String { name }
    }

    struct MedianCase: Decodable, CustomTestStringConvertible {
        let name: String
        let width: Int
        let values: [Float]
        let filtered: [Float]
        var testDescription: String { name }
    }

    struct CompressionCase: Decodable, CustomTestStringConvertible {
        let text: String
        let ratio: Double
        var testDescription: String { text.isEmpty ? "(empty)" : String(text.prefix(24)) }
    }

    /// Words (with token counts) before and after `merge_punctuations`.
    struct PunctuationCase: Decodable, CustomTestStringConvertible {
        struct Word: Decodable {
            let word: String
            let tokenCount: Int

            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                word = try container.decode(String.self)
                tokenCount = try container.decode(Int.self)
            }
        }
        let name: String
        let words: [Word]
        let merged: [Word]
        /// The outcome depends on the reference's substring test (`word in "…"`).
        let substringSemantics: Bool
        var testDescription: String { name }
    }

    let logitRules: [LogitRuleCase]
    let beamSearch: [BeamCase]
    let segments: [SegmentCase]
    let dtw: [DTWCase]
    let medianFilter: [MedianCase]
    let compressionRatio: [CompressionCase]
    let punctuation: [PunctuationCase]

    private static let loaded = Result {
        try JSONDecoder().decode(DecodingReferenceData.self, from: Data(DecodingReference.json.utf8))
    }

    /// The committed reference, decoded once; regenerate it with
    /// Scripts/reference/decoding_reference.py if it does not decode.
    static func shared() throws -> DecodingReferenceData { try loaded.get() }
}
