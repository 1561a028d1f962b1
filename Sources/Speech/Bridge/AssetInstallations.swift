import Foundation
internal import SpeechEngine

/// The installations running in this process, one per model folder, shared
/// by every request that asks for the same model.
enum AssetInstallations {
    /// Progress units per model.
    static let unitsPerModel: Int64 = 100

    /// One running installation and the requests waiting for it.
    private final class Installation: @unchecked Sendable {
        // @unchecked: the observers list is guarded by `AssetInstallations.running`.
        let progress = Progress(totalUnitCount: unitsPerModel)
        var task: Task<Void, any Error>?
        var observers: [@Sendable (Double) -> Void] = []
    }

    private static let running = LockedState<[String: Installation]>([:])

    private static func key(_ model: ModelName, _ store: AssetStore) -> String {
        store.directory(for: model).path
    }

    /// Whether `model` is being installed into `store` now.
    static func isInstalling(_ model: AssetModel, in assets: ModernAssets) -> Bool {
        running.withLock { $0[key(model.name, assets.store)] != nil }
    }

    /// Installs `model`, or joins its installation if one is running;
    /// `report` receives the fraction done.
    static func install(_ model: AssetModel, assets: ModernAssets,
                        report: @escaping @Sendable (Double) -> Void) async throws {
        let key = key(model.name, assets.store)
        let installation: Installation = running.withLock { table in
            if let existing = table[key] {
                existing.observers.append(report)
                return existing
            }
            let installation = Installation()
            installation.observers = [report]
            table[key] = installation
            installation.task = Task {
                defer { _ = running.withLock { $0.removeValue(forKey: key) } }
                let watcher = Task {
                    while !Task.isCancelled {
                        let fraction = installation.progress.fractionCompleted
                        let observers = running.withLock { _ in installation.observers }
                        for observer in observers { observer(fraction) }
                        try? await Task.sleep(nanoseconds: 100_000_000)
                    }
                }
                defer { watcher.cancel() }
                try await assets.installer(model.name, assets.store, installation.progress)
            }
            return installation
        }
        guard let task = running.withLock({ _ in installation.task }) else { return }
        try await task.value
        report(1)
    }
}

/// A model the assets can install, named opaquely for the faces.
struct AssetModel: Hashable, Sendable {
    /// The engine's model.
    let name: ModelName
}
