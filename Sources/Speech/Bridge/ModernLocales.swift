import Foundation
internal import SpeechEngine

/// The locales the transcribers support: every region of the 99 languages
/// Whisper's multilingual model knows (`en-US`, `en-GB`, `fr-CA`, …),
/// compared by language and region, never by `Locale ==`.
enum ModernLocales {
    /// Every supported locale, sorted by identifier.
    static let supportedLocales: [Locale] = LocaleMapping.supportedLocales(languages: WhisperLanguages.codes)
        .sorted { $0.identifier(.bcp47) < $1.identifier(.bcp47) }

    /// The supported locales as a set, for lookups.
    private static let supportedSet = Set(supportedLocales)

    /// The Whisper language code of a locale, or `nil` when Whisper does not
    /// know its language.
    static func languageCode(for locale: Locale) -> String? {
        LocaleMapping.whisperLanguage(for: locale, among: WhisperLanguages.codes)
    }

    /// The supported locales whose model is installed.
    static var installedLocales: [Locale] {
        installedLocales(assets: .current)
    }

    /// The supported locales whose model is installed in `assets`.
    static func installedLocales(assets: ModernAssets) -> [Locale] {
        assets.store.isInstalled(.whisperBase) ? supportedLocales : []
    }

    /// A supported locale equivalent to `locale`.
    static func supportedLocale(equivalentTo locale: Locale) -> Locale? {
        supportedLocale(equivalentTo: locale, assets: .current)
    }

    /// A supported locale equivalent to `locale`: the one with its language
    /// and region; else one with its language, preferring installed locales
    /// and the language's most common region; else `nil`.
    ///
    /// Scripts, keywords (`@rg=gbzzzz`) and the `_`/`-` spelling are ignored.
    static func supportedLocale(equivalentTo locale: Locale, assets: ModernAssets) -> Locale? {
        guard languageCode(for: locale) != nil else { return nil }
        if let exact = LocaleMapping.supportedLocale(equivalentTo: locale, in: supportedSet,
                                                     fallingBackToLanguage: false) {
            return exact
        }
        let installed = Set(installedLocales(assets: assets))
        if let preferred = LocaleMapping.supportedLocale(equivalentTo: locale, in: installed) {
            return preferred
        }
        return LocaleMapping.supportedLocale(equivalentTo: locale, in: supportedSet)
    }
}
