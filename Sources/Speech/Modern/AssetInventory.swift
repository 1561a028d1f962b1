import Foundation

/// Manages the assets (models) the speech modules need: their status,
/// installation, and the app's locale reservations.
///
/// Installed assets persist across launches and are shared between apps; a
/// reservation subscribes the app to a locale's assets. Installing assets
/// for a module reserves its locale automatically.
/// - Note: On Linux the assets are Whisper models in SpeechCompat's model
///   folder (`SPEECHCOMPAT_MODELS_DIR`, else `$XDG_DATA_HOME/speechcompat/models`,
///   else `~/.local/share/speechcompat/models`), and reservations are kept in
///   `asset-reservations.json` beside it. Every supported locale is served by
///   `whisper-base` (`whisper-tiny.en`, when installed, only speeds up English
///   volatile results).
@available(macOS 26.0, iOS 26.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public final class AssetInventory {
    private init() {}

    /// The most locales an app can reserve.
    /// - Note: On Linux 5, as developers report on macOS.
    public static var maximumReservedLocales: Int {
        ModernAssets.current.maximumReservations
    }

    /// The reserved locales; they may be regional variants of the locales
    /// passed to `reserve(locale:)`.
    public static var reservedLocales: [Locale] {
        get async { ModernAssets.current.reservedLocales() }
    }

    /// Reserves a locale's assets for the app.
    /// - Returns: `false` if the locale was reserved already.
    /// - Throws: `SFSpeechError.Code.tooManyAssetLocalesAllocated` beyond
    ///   `maximumReservedLocales`; `cannotAllocateUnsupportedLocale` when no
    ///   asset supports the locale.
    @discardableResult
    public static func reserve(locale: Locale) async throws -> Bool {
        try ModernAssets.current.reserve(locale)
    }

    /// Removes a reservation; the system removes unused assets later.
    /// - Returns: `false` if the locale was not reserved.
    /// - Note: On Linux installed models stay until `speech assets remove`.
    @discardableResult
    public static func release(reservedLocale: Locale) async -> Bool {
        ModernAssets.current.release(reservedLocale)
    }

    /// How ready a set of modules is to run.
    public enum Status: Comparable, Hashable, Sendable {
        /// The modules cannot work with their configuration (for example an
        /// unsupported locale).
        case unsupported
        /// The modules can work once assets are downloaded.
        case supported
        /// Assets are downloading, or waiting to continue.
        case downloading
        /// Everything is installed.
        case installed
    }

    /// The lowest status among the modules
    /// (`unsupported < supported < downloading < installed`).
    public static func status(forModules modules: [any SpeechModule]) async -> Status {
        let assets = ModernAssets.current
        var lowest = Status.installed
        for module in modules {
            lowest = min(lowest, status(of: module, assets: assets))
        }
        return lowest
    }

    /// A request that installs the assets the modules need, or `nil` when
    /// they are installed already. Reserves the modules' locales.
    /// - Throws: `cannotAllocateUnsupportedLocale` (or `noModel` for a module
    ///   that cannot run) when assets are unsupported;
    ///   `tooManyAssetLocalesAllocated` when the reservations would exceed the
    ///   maximum.
    public static func assetInstallationRequest(supporting modules: [any SpeechModule]) async throws
        -> AssetInstallationRequest? {
        let assets = ModernAssets.current
        var models: [AssetModel] = []
        for module in modules {
            guard let settings = (module as? any AnalyzerModule)?.role.transcriberSettings else {
                if module is any AnalyzerModule { continue }
                throw ModernErrors.unsupportedModule(module)
            }
            let locale = settings.locale
            guard ModernLocales.supportedLocale(equivalentTo: locale, assets: assets) != nil else {
                throw ModernErrors.unsupportedLocale(locale)
            }
            if !assets.isReserved(locale) { _ = try assets.reserve(locale) }
            if let model = assets.modelToInstall(for: locale), !models.contains(model) { models.append(model) }
        }
        guard !models.isEmpty else { return nil }
        return AssetInstallationRequest(models: models, assets: assets)
    }

    /// The status of one module.
    static func status(of module: any SpeechModule, assets: ModernAssets) -> Status {
        guard let module = module as? any AnalyzerModule else { return .unsupported }
        guard let settings = module.role.transcriberSettings else { return .installed }
        let locale = settings.locale
        guard ModernLocales.supportedLocale(equivalentTo: locale, assets: assets) != nil else { return .unsupported }
        if assets.isInstalled(locale) { return .installed }
        if let model = assets.modelToInstall(for: locale), AssetInstallations.isInstalling(model, in: assets) {
            return .downloading
        }
        return .supported
    }
}
