import SpeechEvaluation

/// What a shard's report records so that `speech merge` can check the
/// shards fit together: which shard it is and every case id of the suite,
/// in manifest order (the order of the merged report).
public struct SuiteShardInfo: Sendable, Hashable, Codable {
    /// The shard's number, from 1 to ``count``.
    public var index: Int
    /// How many shards the suite was split into.
    public var count: Int
    /// Every case id of the suite, in manifest order, not only this shard's.
    public var suiteCaseIDs: [String]

    /// Creates the record of `shard` of a suite with `suiteCaseIDs`.
    public init(shard: Shard, suiteCaseIDs: [String]) {
        index = shard.index
        count = shard.count
        self.suiteCaseIDs = suiteCaseIDs
    }

    /// "2/4".
    public var description: String { "\(index)/\(count)" }
}
