// AVAsyncProperty: a property constant with its value type, which `load(_:)`
// resolves.

/// An asynchronously loaded property of `Root` whose value is a `Value`:
/// what `try await asset.load(.duration)` passes.
public class AVAsyncProperty<Root, Value>: AVPartialAsyncProperty<Root>, @unchecked Sendable {
    // @unchecked: immutable after creation; the getter is @Sendable.

    /// The load state of a property (`status(of:)`).
    public enum Status {
        /// Not loaded yet.
        case notYetLoaded
        /// Being loaded.
        case loading
        /// Loaded, with its value.
        case loaded(Value)
        /// Loading failed, with the error.
        case failed(NSError)
    }

    /// Reads the value once the root's media has loaded (or loads it).
    private let getter: @Sendable (Root) throws -> Value
    /// Whether the root has loaded what the value needs.
    private let loadedCheck: @Sendable (Root) -> Bool

    /// Creates a property constant over a getter.
    init(key: String, isLoaded: @escaping @Sendable (Root) -> Bool, getter: @escaping @Sendable (Root) throws -> Value) {
        self.getter = getter
        self.loadedCheck = isLoaded
        super.init(key: key)
    }

    /// The property's value on `root`, loading the media if needed.
    func value(of root: Root) throws -> Value { try getter(root) }

    /// Whether `root` has loaded the property.
    func isLoaded(_ root: Root) -> Bool { loadedCheck(root) }
}

extension AVAsyncProperty.Status: Equatable where Value: Equatable {}
extension AVAsyncProperty.Status: @unchecked Sendable {}
