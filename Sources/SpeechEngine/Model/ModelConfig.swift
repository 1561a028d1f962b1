import Foundation

/// The parts of the model's `config.json` the decoder needs. The alignment
/// heads stored inside model.bin are stale defaults; these are the real ones.
struct ModelConfig: Sendable, Decodable {
    /// (decoder layer, head) pairs whose cross-attention tracks time, for DTW word timing.
    var alignmentHeads: [[Int]]
    /// Tokens never sampled (ref: whisper/tokenizer.py `non_speech_tokens`).
    var suppressIds: [Int]
    /// Tokens never sampled as the first token of a window.
    var suppressIdsBegin: [Int]
    /// Language token ids, in Whisper's language order.
    var langIds: [Int]

    enum CodingKeys: String, CodingKey {
        case alignmentHeads = "alignment_heads", suppressIds = "suppress_ids"
        case suppressIdsBegin = "suppress_ids_begin", langIds = "lang_ids"
    }

    init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw EngineError(.modelNotFound, "No model config at \(url.path). Run `speech assets install` to install the model.",
                              underlying: error)
        }
        do { self = try JSONDecoder().decode(ModelConfig.self, from: data) } catch {
            throw EngineError(.invalidModelFile, "\(url.path) is not a valid Whisper config. Reinstall with `speech assets install`.",
                              underlying: error)
        }
    }

    /// Checks every id and index against the model's sizes, so that a
    /// corrupted config.json fails at load instead of indexing out of range
    /// while decoding.
    /// - Throws: `EngineError(.invalidModelFile)` naming the file and the bad entry.
    func validate(against dimensions: ModelDimensions, url: URL) throws {
        func bad(_ detail: String) -> EngineError {
            EngineError(.invalidModelFile,
                        "\(url.path) is corrupted (\(detail)). Reinstall with `speech assets install`.")
        }
        for pair in alignmentHeads {
            guard pair.count == 2, (0..<dimensions.decoderLayerCount).contains(pair[0]),
                  (0..<dimensions.headCount).contains(pair[1]) else {
                throw bad("alignment head \(pair) is not a (layer, head) pair of this \(dimensions.decoderLayerCount)-layer, \(dimensions.headCount)-head decoder")
            }
        }
        let vocabulary = 0..<dimensions.vocabularySize
        for (key, ids) in [("suppress_ids", suppressIds), ("suppress_ids_begin", suppressIdsBegin), ("lang_ids", langIds)] {
            if let id = ids.first(where: { !vocabulary.contains($0) }) {
                throw bad("\(key) holds \(id), outside the vocabulary of \(dimensions.vocabularySize) tokens")
            }
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        alignmentHeads = try container.decodeIfPresent([[Int]].self, forKey: .alignmentHeads) ?? []
        suppressIds = try container.decodeIfPresent([Int].self, forKey: .suppressIds) ?? []
        suppressIdsBegin = try container.decodeIfPresent([Int].self, forKey: .suppressIdsBegin) ?? []
        langIds = try container.decodeIfPresent([Int].self, forKey: .langIds) ?? []
    }
}
