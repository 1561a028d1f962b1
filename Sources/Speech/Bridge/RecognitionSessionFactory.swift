import Foundation
import SpeechEngine
import Synchronization

/// How the faces obtain a `RecognitionSession` for a locale and options.
///
/// The faces never construct sessions themselves: they ask a factory, which
/// is the engine-backed one in the product and a scripted fake in tests
/// (set per recognizer or analyzer, so parallel tests do not interfere).
struct RecognitionSessionFactory: Sendable {
    /// Creates a session ready to take audio; throws `EngineError` when no
    /// model serves the locale or the model cannot be loaded.
    let makeSession: @Sendable (_ locale: Locale, _ options: StreamingOptions) throws -> any RecognitionSession

    /// Wraps a session-making function.
    init(_ makeSession: @escaping @Sendable (_ locale: Locale, _ options: StreamingOptions) throws -> any RecognitionSession) {
        self.makeSession = makeSession
    }

    /// A session for `locale` with `options`.
    func session(for locale: Locale, options: StreamingOptions) throws -> any RecognitionSession {
        try makeSession(locale, options)
    }

    private static let installed = Mutex<RecognitionSessionFactory?>(nil)

    /// The factory the faces use by default: the engine-backed
    /// `EngineSession`, unless `install(_:)` replaced it.
    static var engine: RecognitionSessionFactory {
        installed.withLock { $0 } ?? EngineSession.factory
    }

    /// Makes `factory` the default for every face created afterwards.
    static func install(_ factory: RecognitionSessionFactory) {
        installed.withLock { $0 = factory }
    }

    /// A factory whose sessions always fail to start: used when no engine
    /// session is linked in.
    static let unavailable = RecognitionSessionFactory { _, _ in
        throw EngineError(.modelNotFound, "No recognition engine is available in this build; "
                          + "install a model with `speech assets install` and link the engine session.")
    }
}
