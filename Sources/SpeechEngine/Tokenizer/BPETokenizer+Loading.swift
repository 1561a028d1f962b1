import Foundation

extension BPETokenizer {
    /// Loads the tokenizer of an installed model from `directory/tokenizer.json`
    /// (Hugging Face `tokenizers` format: a byte-level BPE `model.vocab` and
    /// `model.merges`, the latter as `"a b"` strings or `["a", "b"]` pairs).
    ///
    /// - Parameters:
    ///   - directory: the model folder, e.g. `AssetStore.default.directory(for: .whisperBase)`.
    ///   - isMultilingual: whether the model is multilingual; it fixes the
    ///     special-token ids and must agree with the file's `<|endoftext|>` id.
    /// - Throws: `EngineError` `.modelNotFound` when the file is missing,
    ///   `.invalidModelFile` when it is unreadable, malformed or for the other
    ///   kind of model. Messages name the file and the install command.
    public init(directory: URL, isMultilingual: Bool) throws {
        let file = directory.appendingPathComponent("tokenizer.json")
        let fix = Self.fixCommand(for: directory)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw EngineError(.modelNotFound, "No tokenizer at \(file.path). Run \(fix) to install the model.")
        }
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw EngineError(.invalidModelFile, "\(file.path) cannot be read. Run \(fix) to reinstall the model.",
                              underlying: error)
        }
        try self.init(tokenizerJSON: data, path: file.path, fix: fix, isMultilingual: isMultilingual)
    }

    /// Builds the tokenizer from the bytes of a `tokenizer.json`, as loading
    /// a model folder does (for the fuzzers, which mutate those bytes).
    /// - Throws: `EngineError(.invalidModelFile)` naming `path`.
    @_spi(Fuzzing) public init(tokenizerJSON data: Data, path: String, isMultilingual: Bool) throws {
        try self.init(tokenizerJSON: data, path: path, fix: "`speech assets install`", isMultilingual: isMultilingual)
    }

    private init(tokenizerJSON data: Data, path: String, fix: String, isMultilingual: Bool) throws {
        let contents: TokenizerFile
        do {
            contents = try JSONDecoder().decode(TokenizerFile.self, from: data)
        } catch {
            throw EngineError(.invalidModelFile,
                              "\(path) is not a readable tokenizer.json (\(Self.describe(error))). Run \(fix) to reinstall the model.",
                              underlying: error)
        }
        do {
            try self.init(contents: contents, isMultilingual: isMultilingual)
        } catch let problem as TokenizerFileProblem {
            throw EngineError(.invalidModelFile, "\(path): \(problem.reason). Run \(fix) to reinstall the model.")
        }
    }

    /// A JSON decoding error in one line: where and what, without the dump.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        func at(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "the top level" : path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "not valid JSON" : "bad value at \(at(context.codingPath))"
        case .keyNotFound(let key, let context): return "missing key \(at(context.codingPath + [key]))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "wrong type at \(at(context.codingPath))"
        @unknown default: return "malformed"
        }
    }

    /// Builds the byte table, the token bytes and the merge table from a
    /// decoded `tokenizer.json`.
    private init(contents: TokenizerFile, isMultilingual: Bool) throws {
        let specialTokens = SpecialTokens(isMultilingual: isMultilingual)
        let textTokenCount = specialTokens.endOfText
        if let declared = contents.addedTokens?.first(where: { $0.content == "<|endoftext|>" })?.id,
           declared != specialTokens.endOfText {
            let kind = isMultilingual ? "a multilingual" : "an English-only"
            throw TokenizerFileProblem(reason: "<|endoftext|> is token \(declared), so this is not \(kind) model's tokenizer")
        }

        // Token bytes, indexed by id; every text id must be spelled once.
        var spellings = [String?](repeating: nil, count: textTokenCount)
        for (spelling, id) in contents.model.vocab where id >= 0 && id < textTokenCount {
            spellings[id] = spelling
        }
        var storage: [UInt8] = []
        storage.reserveCapacity(textTokenCount * 6)
        var offsets: [Int] = [0]
        offsets.reserveCapacity(textTokenCount + 1)
        for (id, spelling) in spellings.enumerated() {
            guard let spelling else { throw TokenizerFileProblem(reason: "the vocabulary has no token \(id)") }
            guard let bytes = ByteLevelAlphabet.bytes(ofSpelling: spelling) else {
                throw TokenizerFileProblem(reason: "token \(id) is not byte-level text")
            }
            storage.append(contentsOf: bytes)
            offsets.append(storage.count)
        }

        // One token per byte value, the starting point of every encoding.
        let vocab = contents.model.vocab
        var byteTokens: [Int32] = []
        byteTokens.reserveCapacity(256)
        for scalar in ByteLevelAlphabet.scalarForByte {
            guard let id = vocab[String(scalar)], (0..<textTokenCount).contains(id) else {
                throw TokenizerFileProblem(reason: "the vocabulary lacks the byte token \(scalar)")
            }
            byteTokens.append(Int32(id))
        }

        // Merges by rank: the pair's tokens and the token their spelling makes.
        var merges: [UInt64: Merge] = [:]
        merges.reserveCapacity(contents.model.merges.count)
        for (rank, pair) in contents.model.merges.enumerated() {
            // Ids come from the file: all three must be text tokens (this also
            // keeps them within Int32).
            let texts = 0..<textTokenCount
            guard let left = vocab[pair.left], let right = vocab[pair.right],
                  let merged = vocab[pair.left + pair.right],
                  texts.contains(left), texts.contains(right), texts.contains(merged) else {
                throw TokenizerFileProblem(reason: "merge \(rank) (\(pair.left) \(pair.right)) names unknown tokens")
            }
            let key = Self.pairKey(Int32(left), Int32(right))
            if merges[key] == nil {
                merges[key] = Merge(rank: Int32(rank), merged: Int32(merged))
            }
        }
        // A tokenizer.json published with the same Whisper weights lost its
        // first merge ("Ġ t"); encoding with it silently gives wrong ids.
        if let space = vocab["Ġ"], let t = vocab["t"], vocab["Ġt"] != nil,
           merges[Self.pairKey(Int32(space), Int32(t))] == nil {
            throw TokenizerFileProblem(reason: "the merge table lacks the merge \"Ġ t\" (a known broken copy)")
        }

        self.init(specialTokens: specialTokens, byteTokens: byteTokens, merges: merges,
                  tokenByteStorage: storage, tokenByteOffsets: offsets)
    }

    /// The command that (re)installs the model living in `directory`.
    static func fixCommand(for directory: URL) -> String {
        let name = ModelName(rawValue: directory.lastPathComponent)?.rawValue ?? "<model>"
        return "`speech assets install \(name)`"
    }
}

/// Why a `tokenizer.json` cannot be used; turned into an `EngineError` naming the file.
private struct TokenizerFileProblem: Error {
    var reason: String
}

/// The parts of a Hugging Face `tokenizer.json` the tokenizer reads.
private struct TokenizerFile: Decodable {
    struct Model: Decodable {
        var vocab: [String: Int]
        var merges: [MergePair]

        enum CodingKeys: String, CodingKey {
            case vocab, merges
        }

        /// Merges come as `"left right"` strings (older files) or as
        /// `["left", "right"]` pairs (newer ones); the whole list is decoded
        /// in one form or the other, so at most one decoding error is thrown.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            vocab = try container.decode([String: Int].self, forKey: .vocab)
            if let strings = try? container.decode([String].self, forKey: .merges) {
                merges = try strings.map { text in
                    let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
                    guard parts.count == 2 else {
                        throw DecodingError.dataCorruptedError(forKey: .merges, in: container,
                                                               debugDescription: "merge \"\(text)\" is not a pair")
                    }
                    return MergePair(left: String(parts[0]), right: String(parts[1]))
                }
            } else {
                merges = try container.decode([[String]].self, forKey: .merges).map { parts in
                    guard parts.count == 2 else {
                        throw DecodingError.dataCorruptedError(forKey: .merges, in: container,
                                                               debugDescription: "merge \(parts) is not a pair")
                    }
                    return MergePair(left: parts[0], right: parts[1])
                }
            }
        }
    }

    struct AddedToken: Decodable {
        var id: Int
        var content: String
    }

    /// One merge: the two tokens whose spellings join into a new token.
    struct MergePair {
        var left: String
        var right: String
    }

    var model: Model
    var addedTokens: [AddedToken]?

    enum CodingKeys: String, CodingKey {
        case model
        case addedTokens = "added_tokens"
    }
}
