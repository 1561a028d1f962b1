/// What an error rate counts: words (WER) or characters (CER).
public enum ScoringUnit: String, Sendable, Hashable, Codable, CaseIterable {
    /// Word error rate: words are separated by spaces.
    case words
    /// Character error rate, for languages written without spaces between
    /// words (Japanese, Chinese, Korean). Spaces are not counted.
    case characters

    /// The rate's usual name: "WER" or "CER".
    public var rateName: String {
        switch self {
        case .words: return "WER"
        case .characters: return "CER"
        }
    }
}
