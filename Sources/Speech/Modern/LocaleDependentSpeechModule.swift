import Foundation

/// A module whose analysis depends on the language of the audio, such as a
/// transcriber.
///
/// Locale-dependent modules need the assets (models) of their locale
/// installed and the locale reserved through `AssetInventory`.
///
/// ```swift
/// guard let locale = await SpeechTranscriber.supportedLocale(equivalentTo: Locale.current) else {
///     return   // no model for the user's language
/// }
/// let transcriber = SpeechTranscriber(locale: locale, preset: .transcription)
/// if let request = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
///     try await request.downloadAndInstall()
/// }
/// ```
/// - Note: On Linux every locale is served by the multilingual Whisper model
///   `whisper-base` (99 languages); regions do not change the model.
@available(macOS 26.0, iOS 26.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public protocol LocaleDependentSpeechModule: SpeechModule {
    /// The locales the module supports, including those whose assets are not
    /// installed yet; empty if the device cannot run the module.
    static var supportedLocales: [Locale] { get async }

    /// A supported locale equivalent to `locale` (the same locale, or one with
    /// the same language and a different region, preferring installed ones),
    /// or `nil` when no supported locale matches.
    ///
    /// Use this rather than `supportedLocales.contains(_:)`: two locales can
    /// be equivalent without being equal (`en-US` and `en_US@rg=gbzzzz`).
    static func supportedLocale(equivalentTo locale: Locale) async -> Locale?

    /// The locales this module instance was configured with.
    ///
    /// A transcriber has exactly one: the locale given at creation, as given
    /// (not normalised to a supported equivalent).
    var selectedLocales: [Locale] { get }
}
