/// One of N shards of a manifest or suite, `I/N` on the command line (1-based:
/// `2/4` is the second of four), so that CI can run a long evaluation or
/// migration suite as N parallel jobs and merge their reports.
///
/// A case belongs to a shard by its id alone: shard `(fnv1a64(id) mod N) + 1`,
/// where `fnv1a64` is the 64-bit FNV-1a hash of the id's UTF-8 bytes
/// (offset basis 0xcbf29ce484222325, prime 0x100000001b3). The assignment is
/// the same in every process, on every machine and in every version of Swift
/// (Swift's `Hasher` is seeded per process, so it cannot be used), and it
/// does not depend on the order of the cases: adding a case moves no other.
public struct Shard: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The shard's number, from 1 to ``count``.
    public let index: Int
    /// How many shards there are, at least 1.
    public let count: Int

    /// The largest shard count accepted: more shards than this is a typo.
    public static let maximumCount = 10_000

    /// The whole run as one shard (`1/1`).
    public static let whole = Shard(uncheckedIndex: 1, count: 1)

    /// Creates shard `index` of `count`.
    /// - Throws: ``ShardError`` when `count` is not from 1 to ``maximumCount``
    ///   or `index` not from 1 to `count`.
    public init(index: Int, count: Int) throws(ShardError) {
        let text = "\(index)/\(count)"
        guard (1...Self.maximumCount).contains(count) else {
            throw ShardError(.countOutOfRange, text, "the shard count \(count) must be from 1 to \(Self.maximumCount).")
        }
        guard (1...count).contains(index) else {
            throw ShardError(.indexOutOfRange, text,
                             "the shard index \(index) must be from 1 to \(count) (shards count from 1).")
        }
        self.init(uncheckedIndex: index, count: count)
    }

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `I/N`, for example `2/4`.
    /// - Throws: ``ShardError`` naming what is wrong and the expected form.
    public init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Self.wholeNumber(parts[0]), let count = Self.wholeNumber(parts[1]) else {
            throw ShardError(.malformed, text, "expected I/N, two whole numbers such as 2/4 (the second of four shards).")
        }
        try self.init(index: index, count: count)
    }

    /// Digits only: no sign, no spaces, no fraction.
    private static func wholeNumber(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// "2/4".
    public var description: String { "\(index)/\(count)" }

    /// Whether the case or clip `id` belongs to this shard.
    public func contains(id: String) -> Bool {
        Self.index(of: id, count: count) == index
    }

    /// The items whose ids belong to this shard, in their original order.
    public func select<Item>(_ items: [Item], id: (Item) -> String) -> [Item] {
        items.filter { contains(id: id($0)) }
    }

    /// The shard (1 to `count`) that `id` belongs to among `count` shards.
    public static func index(of id: String, count: Int) -> Int {
        Int(stableHash(id) % UInt64(max(count, 1))) + 1
    }

    /// The 64-bit FNV-1a hash of `id`'s UTF-8 bytes: stable across processes.
    public static func stableHash(_ id: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
