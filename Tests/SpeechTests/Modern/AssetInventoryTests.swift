import Foundation
import Synchronization
import SpeechEngine
import Testing
import TestSupport
@testable import Speech

/// `AssetInventory` and `AssetInstallationRequest` over a temporary model
/// folder: status, reservations (persisted), installation requests.
@Suite("AssetInventory (temporary model folder)")
struct AssetInventoryTests {
    /// The models installed on this machine (`~/.local/share/speechcompat/models`).
    private static let installedStore = AssetStore.default

    /// Assets in `folder`, installing by linking this machine's installed
    /// model (counting installs, stopping at `gate` until the test opens it),
    /// or with no models at all.
    private func assets(in folder: URL, installs: InstallCounter? = nil, gate: Gate? = nil) -> ModernAssets {
        ModernAssets(store: AssetStore(root: folder.appendingPathComponent("models")),
                     installer: { model, store, progress in
                         installs?.increment()
                         progress.totalUnitCount = 10
                         await gate?.pass()
                         try FileManager.default.createDirectory(at: store.root, withIntermediateDirectories: true)
                         try FileManager.default.createSymbolicLink(
                             at: store.directory(for: model),
                             withDestinationURL: Self.installedStore.directory(for: model))
                         progress.completedUnitCount = 10
                     })
    }

    @Test("reservations are persisted, capped and matched by region")
    func reservations() async throws {
        let folder = try Fixtures.temporaryDirectory("modern-assets")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await ModernAssets.$overridden.withValue(assets(in: folder)) {
            #expect(AssetInventory.maximumReservedLocales == 5)
            #expect(await AssetInventory.reservedLocales.isEmpty)
            #expect(try await AssetInventory.reserve(locale: Locale(identifier: "en_US")))
            #expect(try await AssetInventory.reserve(locale: Locale(identifier: "en-US")) == false)
            for identifier in ["fr-FR", "de-DE", "es-ES", "it-IT"] {
                try await AssetInventory.reserve(locale: Locale(identifier: identifier))
            }
            await #expect(throws: SFSpeechError(.tooManyAssetLocalesAllocated)) {
                try await AssetInventory.reserve(locale: Locale(identifier: "ja-JP"))
            }
            await #expect(throws: SFSpeechError(.cannotAllocateUnsupportedLocale)) {
                try await AssetInventory.reserve(locale: Locale(identifier: "tlh"))
            }
            #expect(await AssetInventory.release(reservedLocale: Locale(identifier: "de_DE")))
            #expect(await AssetInventory.release(reservedLocale: Locale(identifier: "de_DE")) == false)
        }
        // A new process (fresh assets over the same folder) sees them.
        await ModernAssets.$overridden.withValue(assets(in: folder)) {
            let keys = await AssetInventory.reservedLocales.map(LocaleMapping.key(of:))
            #expect(keys == ["en-US", "fr-FR", "es-ES", "it-IT"])
        }
        let file = folder.appendingPathComponent("asset-reservations.json")
        #expect(FileManager.default.fileExists(atPath: file.path))
    }

    @Test("status is the lowest among the modules")
    func status() async throws {
        let folder = try Fixtures.temporaryDirectory("modern-assets")
        defer { try? FileManager.default.removeItem(at: folder) }
        await ModernAssets.$overridden.withValue(assets(in: folder)) {
            let english = SpeechTranscriber(locale: englishUS, preset: .transcription)
            let klingon = SpeechTranscriber(locale: Locale(identifier: "tlh"), preset: .transcription)
            #expect(await AssetInventory.status(forModules: []) == .installed)
            #expect(await AssetInventory.status(forModules: [SpeechDetector()]) == .installed)
            #expect(await AssetInventory.status(forModules: [english]) == .supported)
            #expect(await AssetInventory.status(forModules: [english, klingon]) == .unsupported)
            let ordered: [AssetInventory.Status] = [.unsupported, .supported, .downloading, .installed]
            #expect(ordered == ordered.sorted() && Set(ordered).count == 4)
            await #expect(throws: SFSpeechError(.cannotAllocateUnsupportedLocale)) {
                _ = try await AssetInventory.assetInstallationRequest(supporting: [klingon])
            }
        }
    }

    @Test("installation is consolidated, reports progress, reserves, and then needs no request",
          .enabled(if: AssetStore.default.isInstalled(.whisperBase), "needs whisper-base installed"))
    func installation() async throws {
        let folder = try Fixtures.temporaryDirectory("modern-assets")
        defer { try? FileManager.default.removeItem(at: folder) }
        let installs = InstallCounter()
        let gate = Gate()
        try await ModernAssets.$overridden.withValue(assets(in: folder, installs: installs, gate: gate)) {
            let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-GB"), preset: .transcription)
            let first = try #require(try await AssetInventory.assetInstallationRequest(supporting: [transcriber]))
            let second = try #require(try await AssetInventory.assetInstallationRequest(supporting: [transcriber]))
            #expect(await AssetInventory.reservedLocales.map(LocaleMapping.key(of:)) == ["en-GB"])
            async let one: Void = first.downloadAndInstall()
            async let two: Void = second.downloadAndInstall()
            await gate.arrival()
            #expect(await AssetInventory.status(forModules: [transcriber]) == .downloading)
            #expect(installs.count == 1)
            gate.open()
            _ = try await (one, two)
            try await first.downloadAndInstall()   // idempotent: nothing to do
            #expect(installs.count == 1)
            #expect(first.progress.fractionCompleted == 1 && second.progress.fractionCompleted == 1)
            #expect(await AssetInventory.status(forModules: [transcriber]) == .installed)
            #expect(try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) == nil)
            #expect(await SpeechTranscriber.installedLocales.count == (await SpeechTranscriber.supportedLocales).count)
            let format = try #require(await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]))
            #expect(format.sampleRate == 16_000 && format.channelCount == 1 && format.commonFormat == .pcmFormatInt16)
            let natural = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)
            let preferred = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber, SpeechDetector()],
                                                                          considering: natural)
            #expect(preferred?.commonFormat == .pcmFormatFloat32)
        }
    }

    @Test("a failed install throws noModel with the reason")
    func failedInstall() async throws {
        let folder = try Fixtures.temporaryDirectory("modern-assets")
        defer { try? FileManager.default.removeItem(at: folder) }
        let failing = ModernAssets(store: AssetStore(root: folder.appendingPathComponent("models")),
                                   installer: { _, _, _ in
                                       throw EngineError(.assetInstallFailed, "The network is down.")
                                   })
        try await ModernAssets.$overridden.withValue(failing) {
            let transcriber = SpeechTranscriber(locale: Locale(identifier: "pt-BR"), preset: .transcription)
            let request = try #require(try await AssetInventory.assetInstallationRequest(supporting: [transcriber]))
            await #expect(throws: SFSpeechError(.noModel)) { try await request.downloadAndInstall() }
            #expect(await AssetInventory.status(forModules: [transcriber]) == .supported)
        }
    }

    @Test("running a module reserves its locale, or fails with assetLocaleNotAllocated when full")
    func analyzerReservation() async throws {
        let folder = try Fixtures.temporaryDirectory("modern-assets")
        defer { try? FileManager.default.removeItem(at: folder) }
        let assets = ModernAssets(store: AssetStore(root: folder.appendingPathComponent("models")),
                                  maximumReservations: 1)
        try await withModernEnvironment(assets: assets) {
            let analyzer = SpeechAnalyzer(modules: [SpeechTranscriber(locale: englishUS, preset: .transcription)])
            try await analyzer.prepareToAnalyze(in: nil)
            #expect(await AssetInventory.reservedLocales.map(LocaleMapping.key(of:)) == ["en-US"])
            let french = SpeechTranscriber(locale: Locale(identifier: "fr-FR"), preset: .transcription)
            let second = SpeechAnalyzer(modules: [french])
            await #expect(throws: SFSpeechError(.assetLocaleNotAllocated)) { try await second.prepareToAnalyze(in: nil) }
            await analyzer.cancelAndFinishNow()
            await second.cancelAndFinishNow()
        }
    }
}

/// Counts installer runs across tasks.
final class InstallCounter: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}
