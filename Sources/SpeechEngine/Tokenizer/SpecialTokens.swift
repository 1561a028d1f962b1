/// The ids of Whisper's special tokens: control tokens, the 99 language
/// tokens and the 1,501 timestamp tokens.
///
/// Multilingual models: `<|endoftext|>` 50257, `<|startoftranscript|>` 50258,
/// languages 50259–50357, `<|translate|>` 50358, `<|transcribe|>` 50359,
/// `<|startoflm|>` 50360, `<|startofprev|>` 50361, `<|nospeech|>` 50362,
/// `<|notimestamps|>` 50363, timestamps `<|0.00|>` 50364 … `<|30.00|>` 51864.
/// English-only models (`*.en`) have one text token fewer, so every special
/// id is one lower. Every id at or above `endOfText` is special; all below
/// are text.
///
/// ref: openai/whisper whisper/tokenizer.py `Tokenizer.special_tokens`.
public struct SpecialTokens: Sendable, Hashable {
    /// Whether these are a multilingual model's ids (`false`: English-only).
    public let isMultilingual: Bool
    /// `<|endoftext|>`: ends a transcript; also the first special id.
    public let endOfText: Int
    /// `<|startoftranscript|>`: the first token of every decoder prompt.
    public let startOfTranscript: Int
    /// `<|translate|>`: task token asking for English output.
    public let translate: Int
    /// `<|transcribe|>`: task token asking for the spoken language's text.
    public let transcribe: Int
    /// `<|startoflm|>`: unused by Whisper's decoding; never sampled.
    public let startOfLanguageModel: Int
    /// `<|startofprev|>`: precedes previous text or an initial prompt.
    public let startOfPrevious: Int
    /// `<|nospeech|>` (`<|nocaptions|>` in English-only vocabularies): its
    /// probability after `startOfTranscript` is the no-speech probability.
    public let noSpeech: Int
    /// `<|notimestamps|>`: asks for text without timestamp tokens.
    public let noTimestamps: Int
    /// `<|0.00|>`: the first timestamp token; token `timestampBegin + i`
    /// stands for `i × 0.02` seconds into the window.
    public let timestampBegin: Int

    /// The number of timestamp tokens: 0.00 s to 30.00 s in 0.02 s steps.
    public static let timestampCount = 1501
    /// Seconds between consecutive timestamp tokens.
    public static let secondsPerTimestamp = 0.02

    /// The ids for a multilingual or an English-only Whisper vocabulary.
    public init(isMultilingual: Bool) {
        self.isMultilingual = isMultilingual
        let eot = isMultilingual ? 50257 : 50256
        endOfText = eot
        startOfTranscript = eot + 1
        let afterLanguages = eot + 2 + WhisperLanguages.codes.count
        translate = afterLanguages
        transcribe = afterLanguages + 1
        startOfLanguageModel = afterLanguages + 2
        startOfPrevious = afterLanguages + 3
        noSpeech = afterLanguages + 4
        noTimestamps = afterLanguages + 5
        timestampBegin = afterLanguages + 6
    }

    /// The first language token (`<|en|>`).
    public var firstLanguage: Int { startOfTranscript + 1 }

    /// The last timestamp token (`<|30.00|>`).
    public var timestampEnd: Int { timestampBegin + Self.timestampCount - 1 }

    /// The number of ids the model scores: text, special and timestamp tokens
    /// (51865 multilingual, 51864 English-only).
    public var vocabularySize: Int { timestampEnd + 1 }

    /// The token for a language code (`"de"` → 50261), or `nil` for an
    /// unknown code. English-only models only know `"en"`.
    public func language(_ code: String) -> Int? {
        guard let index = WhisperLanguages.indexByCode[code] else { return nil }
        guard isMultilingual || index == 0 else { return nil }
        return firstLanguage + index
    }

    /// The language code of a language token (50261 → `"de"`), or `nil` when
    /// the token is not a language this model knows.
    public func languageCode(forToken token: Int) -> String? {
        let index = token - firstLanguage
        guard WhisperLanguages.codes.indices.contains(index) else { return nil }
        guard isMultilingual || index == 0 else { return nil }
        return WhisperLanguages.codes[index]
    }

    /// The language tokens this model may predict, in `WhisperLanguages.codes`
    /// order (all 99 multilingual, only `<|en|>` English-only).
    public var languageTokens: [Int] {
        isMultilingual ? Array(firstLanguage..<translate) : [firstLanguage]
    }

    /// Whether `token` is a text token (below `endOfText`).
    public func isText(_ token: Int) -> Bool { token >= 0 && token < endOfText }

    /// Whether `token` is a timestamp token.
    public func isTimestamp(_ token: Int) -> Bool { (timestampBegin...timestampEnd).contains(token) }

    /// The time a timestamp token stands for, in seconds from the window start,
    /// or `nil` when `token` is not a timestamp.
    public func seconds(ofTimestamp token: Int) -> Double? {
        guard isTimestamp(token) else { return nil }
        return Double(token - timestampBegin) * Self.secondsPerTimestamp
    }

    /// The timestamp token nearest to `seconds` (rounded down to 0.02 s steps
    /// and clamped to 0…30 s).
    public func timestamp(atSeconds seconds: Double) -> Int {
        let steps = Int((seconds / Self.secondsPerTimestamp + 1e-6).rounded(.down))
        return timestampBegin + min(max(steps, 0), Self.timestampCount - 1)
    }

    /// The text of a special token as the vocabulary spells it
    /// (`"<|endoftext|>"`, `"<|de|>"`, `"<|1.50|>"`), or `nil` for text tokens
    /// and ids beyond the vocabulary.
    public func text(of token: Int) -> String? {
        if let seconds = seconds(ofTimestamp: token) {
            let hundredths = Int((seconds * 100).rounded())
            let fraction = hundredths % 100
            return "<|\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)|>"
        }
        if token >= firstLanguage, token < translate {
            return "<|\(WhisperLanguages.codes[token - firstLanguage])|>"
        }
        switch token {
        case endOfText: return "<|endoftext|>"
        case startOfTranscript: return "<|startoftranscript|>"
        case translate: return "<|translate|>"
        case transcribe: return "<|transcribe|>"
        case startOfLanguageModel: return "<|startoflm|>"
        case startOfPrevious: return "<|startofprev|>"
        case noSpeech: return isMultilingual ? "<|nospeech|>" : "<|nocaptions|>"
        case noTimestamps: return "<|notimestamps|>"
        default: return nil
        }
    }
}
