// AVAsynchronousKeyValueLoading: loading an asset's or track's properties,
// the async way (`load(.duration)`) and the older key-value way.

/// The load state of a property loaded by key.
public enum AVKeyValueStatus: Int, @unchecked Sendable {
    /// Not known yet.
    case unknown = 0
    /// Being loaded.
    case loading = 1
    /// Loaded and ready.
    case loaded = 2
    /// Loading failed; the error says why.
    case failed = 3
    /// Loading was cancelled.
    case cancelled = 4
}

/// A type whose properties load asynchronously: `AVAsset` and `AVAssetTrack`.
///
/// Swift code calls `try await asset.load(.duration, .tracks)`; older code
/// calls `loadValuesAsynchronously(forKeys:)` and then
/// `statusOfValue(forKey:error:)`.
/// - Note: On Linux loading opens the file with libsndfile once; every
///   property comes from that. Keys name the async properties (`"duration"`,
///   `"tracks"`, …); an unknown key fails.
public protocol AVAsynchronousKeyValueLoading {
    /// The load state of the property named `key`; `outError` gets the
    /// error when it is `.failed`.
    func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus
    /// Loads the properties named `keys` and then calls `handler` on an
    /// arbitrary queue.
    func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)?)
}

extension AVAsynchronousKeyValueLoading {
    /// Loads a property and returns its value.
    /// - Throws: The error that stopped the media from loading, e.g. an
    ///   `AVFoundationErrorDomain` error for a file that cannot be read.
    public func load<T>(_ property: AVAsyncProperty<Self, T>,
                        isolation: isolated (any Actor)? = #isolation) async throws -> T {
        try property.value(of: self)
    }

    /// Loads two or more properties and returns their values as a tuple.
    public func load<A, B, each C>(_ firstProperty: AVAsyncProperty<Self, A>, _ secondProperty: AVAsyncProperty<Self, B>,
                                   _ properties: repeat AVAsyncProperty<Self, each C>,
                                   isolation: isolated (any Actor)? = #isolation) async throws -> (A, B, repeat each C) {
        (try firstProperty.value(of: self), try secondProperty.value(of: self), repeat try (each properties).value(of: self))
    }

    /// The load state of a property, without loading it.
    public func status<T>(of property: AVAsyncProperty<Self, T>) -> AVAsyncProperty<Self, T>.Status {
        guard property.isLoaded(self) else { return .notYetLoaded }
        do {
            return .loaded(try property.value(of: self))
        } catch {
            return .failed(error as NSError)
        }
    }
}
