// AVPartialAsyncProperty: the property constants `load(_:)` takes, typed by
// the object they belong to.

/// An asynchronously loaded property of `Root`, with its value type not yet
/// fixed; the constants (`.duration`, `.tracks`, …) live in extensions of
/// this class constrained to `AVAsset` and `AVAssetTrack`.
public class AVPartialAsyncProperty<Root>: NSObject, @unchecked Sendable {
    // @unchecked: immutable after creation.

    /// The property's key, as `statusOfValue(forKey:error:)` takes it.
    let key: String

    /// Creates a property constant with its key.
    init(key: String) {
        self.key = key
        super.init()
    }

    /// The key.
    public override var description: String { "AVAsyncProperty(\(key))" }
}
