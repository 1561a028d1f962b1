import Foundation
import SpeechEngine
import TestSupport
import Testing
@testable import Speech

@Suite struct LocaleMappingTests {
    @Test func underscoreDashKeywordsAndScriptsCompareEqual() {
        #expect(LocaleMapping.matches(Locale(identifier: "en_US"), Locale(identifier: "en-US")))
        #expect(LocaleMapping.matches(Locale(identifier: "en_US@rg=dezzzz"), Locale(identifier: "en-US")))
        #expect(LocaleMapping.matches(Locale(identifier: "zh-Hans-CN"), Locale(identifier: "zh_CN")))
        #expect(!LocaleMapping.matches(Locale(identifier: "en-GB"), Locale(identifier: "en-US")))
        #expect(LocaleMapping.key(of: Locale(identifier: "fr_CA")) == "fr-CA")
    }

    @Test func whisperCodesMapBothWays() {
        let codes = LocaleMapping.whisperLanguages
        #expect(codes.count == 99)
        #expect(LocaleMapping.whisperLanguage(for: Locale(identifier: "en-GB"), among: codes) == "en")
        #expect(LocaleMapping.whisperLanguage(for: Locale(identifier: "jv-ID"), among: codes) == "jw")
        #expect(LocaleMapping.whisperLanguage(for: Locale(identifier: "nb-NO"), among: codes) == "no")
        #expect(LocaleMapping.whisperLanguage(for: Locale(identifier: "iw-IL"), among: codes) == "he")
        #expect(LocaleMapping.whisperLanguage(for: Locale(identifier: "tlh"), among: codes) == nil)
        #expect(LocaleMapping.bcp47Language(forWhisper: "jw") == "jv")
    }

    @Test func supportedLocalesHaveRegionVariantsForEveryLanguage() {
        let locales = LocaleMapping.supportedLocales(languages: LocaleMapping.whisperLanguages)
        let keys = Set(locales.map(LocaleMapping.key(of:)))
        for expected in ["en-US", "en-GB", "en-AU", "fr-FR", "fr-CA", "es-MX", "pt-BR", "de-DE", "zh-CN", "ja-JP"] {
            #expect(keys.contains(expected), "\(expected) missing")
        }
        let languages = Set(locales.compactMap(LocaleMapping.languageCode(of:)))
        for code in LocaleMapping.whisperLanguages {
            #expect(languages.contains(LocaleMapping.bcp47Language(forWhisper: code)), "\(code) missing")
        }
    }

    @Test func equivalentLocaleFallsBackToTheLanguage() {
        let supported: Set<Locale> = [Locale(identifier: "en-US"), Locale(identifier: "en-GB"),
                                      Locale(identifier: "fr-FR")]
        #expect(LocaleMapping.supportedLocale(equivalentTo: Locale(identifier: "en_GB"), in: supported)
                .map(LocaleMapping.key(of:)) == "en-GB")
        #expect(LocaleMapping.supportedLocale(equivalentTo: Locale(identifier: "en-NZ"), in: supported)
                .map(LocaleMapping.key(of:)) == "en-US")
        #expect(LocaleMapping.supportedLocale(equivalentTo: Locale(identifier: "en-NZ"), in: supported,
                                              fallingBackToLanguage: false) == nil)
        #expect(LocaleMapping.supportedLocale(equivalentTo: Locale(identifier: "de-DE"), in: supported) == nil)
    }

    @Test func modelsServingALanguage() {
        #expect(Set(LocaleMapping.models(forLanguage: "en")) == [.whisperBase, .whisperTinyEn])
        #expect(LocaleMapping.models(forLanguage: "fr") == [.whisperBase])
    }
}

extension LocaleMappingTests {
    @Test func availabilityNeedsWhisperBaseInTheStore() throws {
        let empty = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(!LocaleMapping.isInstalled(Locale(identifier: "en-US"), in: AssetStore(root: empty)))
        #expect(!LocaleMapping.isInstalled(Locale(identifier: "tlh"), in: AssetStore.default))
    }
}
