extension Alignment where Unit == String {
    /// The alignment as one line of words: matches as they are, deletions as
    /// `[-word-]`, insertions as `{+word+}`, substitutions as
    /// `[-old-]{+new+}` (the notation of `git diff --word-diff`).
    public var wordDiff: String {
        pairs.map { pair in
            switch pair.operation {
            case .match: return pair.reference ?? ""
            case .substitution: return "[-\(pair.reference ?? "")-]{+\(pair.hypothesis ?? "")+}"
            case .deletion: return "[-\(pair.reference ?? "")-]"
            case .insertion: return "{+\(pair.hypothesis ?? "")+}"
            }
        }.joined(separator: " ")
    }
}
