import Foundation
internal import SpeechEngine

/// How the faces obtain a `RecognitionBackend` for a locale and configuration.
///
/// The faces never construct backends themselves: they ask a factory, which
/// is the engine-backed one in the product and a scripted fake in tests
/// (set per recognizer or analyzer, so parallel tests do not interfere), or
/// another face's pipeline (SpeechMigration's adapters).
package struct RecognitionSessionFactory: Sendable {
    /// Creates a backend ready to take audio; throws when no model serves
    /// the locale or the model cannot be loaded.
    let makeBackend: @Sendable (_ locale: Locale, _ configuration: RecognitionConfiguration) throws
        -> any RecognitionBackend

    /// Wraps a backend-making function.
    package init(_ makeBackend: @escaping @Sendable (_ locale: Locale, _ configuration: RecognitionConfiguration) throws
                    -> any RecognitionBackend) {
        self.makeBackend = makeBackend
    }

    /// A backend for `locale` with `configuration`.
    func backend(for locale: Locale, configuration: RecognitionConfiguration) throws -> any RecognitionBackend {
        try makeBackend(locale, configuration)
    }

    /// The engine-backed factory the faces use by default.
    static let engine = RecognitionSessionFactory { locale, configuration in
        // SPEECHCOMPAT_SERVICE=unix:PATH: recognise in `speech serve` (one shared model) instead.
        if let socketPath = try ServiceBackend.endpointFromEnvironment() {
            return try ServiceBackend(socketPath: socketPath, locale: locale, configuration: configuration)
        }
        return try EngineBackend(locale: locale, configuration: configuration)
    }
}

extension RecognitionSessionFactory {
    /// A factory whose backends always fail to start (no engine linked in).
    static let unavailable = RecognitionSessionFactory { _, _ in
        throw EngineError(.modelNotFound, "No recognition engine is available in this build; "
                          + "install a model with `speech assets install` and link the engine backend.")
    }
}
