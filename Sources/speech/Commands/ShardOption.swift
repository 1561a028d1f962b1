import SpeechEvaluation

/// `--shard I/N`, shared by `migrate-test` and `eval`: run only the cases
/// (clips) of shard I of N, chosen by a stable hash of each id
/// (``Shard``), so N CI jobs split one suite or manifest without overlap.
enum ShardOption {
    /// The option's declaration and help line.
    static let option = OptionSpec.value("shard", "I/N", help: "Run only shard I of N (1-based, e.g. 2/4), chosen by a stable hash\nof each case id; merge the reports with 'speech merge'.")

    /// The shard given with `--shard`, if any.
    /// - Throws: ``UsageError`` when the value is not `I/N` with 1 ≤ I ≤ N.
    static func shard(from arguments: ParsedArguments) throws(UsageError) -> Shard? {
        guard let text = arguments.value("shard") else { return nil }
        do {
            return try Shard(parsing: text)
        } catch {
            throw UsageError("The value '\(text)' for '--shard' is invalid: \(error.message)")
        }
    }
}
