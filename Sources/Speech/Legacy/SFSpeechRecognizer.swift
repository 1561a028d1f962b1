import Foundation


/// Recognizes speech in a locale: the entry point of the legacy Speech API.
///
/// Check `isAvailable`, ask for permission with `requestAuthorization(_:)`,
/// then start tasks with `recognitionTask(with:resultHandler:)` or
/// `recognitionTask(with:delegate:)`. Handlers and delegate calls run on
/// `queue`, the main queue by default.
/// - Note: On Linux recognition runs on this machine with Whisper models.
///   `supportedLocales()` lists every Whisper language with its regions;
///   `isAvailable` is whether a model serving the locale is installed
///   (`speech assets install whisper-base`). Main-queue delivery needs a
///   running main run loop (`RunLoop.main.run()` or `dispatchMain()`);
///   command-line tools and tests can set `queue = OperationQueue()`.
@available(iOS 10.0, macOS 10.15, *)
open class SFSpeechRecognizer: NSObject, @unchecked Sendable {
    // @unchecked: like Apple's, configured by the app from one thread;
    // availability monitoring state is behind `monitorLock`.

    /// The recognizer's locale.
    open private(set) var locale: Locale

    /// Receives availability changes; held weakly.
    /// - Note: While a delegate is set the recognizer checks the installed
    ///   models every two seconds and reports changes on `queue`.
    weak open var delegate: (any SFSpeechRecognizerDelegate)? {
        didSet { updateAvailabilityMonitor() }
    }

    /// The task hint used when a request's `taskHint` is `.unspecified`.
    open var defaultTaskHint: SFSpeechRecognitionTaskHint = .unspecified

    /// The queue on which result handlers and delegate methods run; default
    /// `OperationQueue.main`.
    open var queue: OperationQueue = .main

    /// Whether the recognizer can work without network access.
    /// - Note: On Linux all recognition is local: this is `isAvailable` unless set.
    @available(iOS 13.0, macOS 10.15, *)
    open var supportsOnDeviceRecognition: Bool {
        get { onDeviceOverride ?? isAvailable }
        set { onDeviceOverride = newValue }
    }

    /// Where tasks get their sessions: the engine, a scripted fake in tests,
    /// or SpeechMigration's modern pipeline (`useModernPipeline()`).
    package var sessionFactory: RecognitionSessionFactory = .engine
    /// Where tasks and the availability timer run their hops (tests use a manual one).
    package var scheduler: BridgeScheduler = .system {
        didSet { updateAvailabilityMonitor() }
    }
    /// Whether a model for a locale is installed.
    package var availabilityCheck: @Sendable (Locale) -> Bool = { LocaleMapping.isInstalled($0) }
    /// The permission answer tasks are checked against (see
    /// `AuthorizationStore.statusForNewTask()`).
    package var authorizationStatusProvider: @Sendable () -> SFSpeechRecognizerAuthorizationStatus = {
        AuthorizationStore.standard.statusForNewTask()
    }
    /// Seconds between availability checks while a delegate is set.
    package var availabilityPollInterval: TimeInterval = 2 {
        didSet { updateAvailabilityMonitor() }
    }

    private var onDeviceOverride: Bool?
    let monitorLock = NSLock()
    var monitor: BridgeTimer?
    var lastReportedAvailability: Bool?

    /// Creates a recognizer for the user's default language, or nil when it
    /// is not supported.
    /// - Note: Declared `@_nonoverride`: Swift cannot override `NSObject.init()`
    ///   with a failable initializer, and this spelling keeps Apple's — a
    ///   subclass that overrides `init?(locale:)` inherits it, and can call
    ///   or redeclare `init?()`.
    @_nonoverride public convenience init?() {
        self.init(locale: Locale.current)
    }

    /// Creates a recognizer for `locale`. An unsupported locale falls back to
    /// the user's language (Apple: the keyboard-dictation language); nil when
    /// that is not supported either. A recognizer may still be unavailable.
    public init?(locale: Locale) {
        let supported = SFSpeechRecognizer.cachedSupportedLocales
        guard let resolved = LocaleMapping.supportedLocale(equivalentTo: locale, in: supported)
                ?? LocaleMapping.supportedLocale(equivalentTo: Locale.current, in: supported) else {
            return nil
        }
        self.locale = resolved
        super.init()
    }

    deinit {
        monitor?.cancel()
    }

    /// The locales speech recognition supports.
    /// - Note: Every Whisper language (99), in each region ICU knows for it.
    open class func supportedLocales() -> Set<Locale> {
        cachedSupportedLocales
    }

    private static let cachedSupportedLocales = LocaleMapping.supportedLocales(languages: LocaleMapping.whisperLanguages)

    /// The app's current permission to perform speech recognition.
    /// - Note: Emulated; see `SFSpeechRecognizerAuthorizationStatus`.
    open class func authorizationStatus() -> SFSpeechRecognizerAuthorizationStatus {
        AuthorizationStore.standard.status()
    }

    /// Asks for permission; returns at once and calls `handler` later on a
    /// background queue (not `queue`), with the remembered answer if there is one.
    /// - Note: Emulated: the first request is granted and persisted, unless
    ///   `SPEECHCOMPAT_SPEECH_AUTHORIZATION` forces an answer.
    open class func requestAuthorization(_ handler: @escaping (SFSpeechRecognizerAuthorizationStatus) -> Void) {
        nonisolated(unsafe) let handler = handler
        DispatchQueue.global(qos: .userInitiated).async {
            handler(AuthorizationStore.standard.request())
        }
    }

    /// Whether the recognizer can recognize now: a model serving its locale
    /// is installed.
    open var isAvailable: Bool {
        availabilityCheck(locale)
    }

    /// Starts recognizing `request`; `resultHandler` receives partial results
    /// (if requested), then one final result or one error, on `queue`.
    ///
    /// A task started while speech recognition is denied or restricted, or
    /// before the user answered, fails at once with `kAFAssistantErrorDomain`
    /// 1700 ("Request is not authorized"), as on Apple platforms.
    @discardableResult
    open func recognitionTask(with request: SFSpeechRecognitionRequest,
                              resultHandler: @escaping (SFSpeechRecognitionResult?, (any Error)?) -> Void)
        -> SFSpeechRecognitionTask {
        startTask(request, receiver: .handler(resultHandler))
    }

    /// Starts recognizing `request`, reporting to `delegate` on `queue`. The
    /// task does not retain the delegate.
    @discardableResult
    open func recognitionTask(with request: SFSpeechRecognitionRequest,
                              delegate: any SFSpeechRecognitionTaskDelegate) -> SFSpeechRecognitionTask {
        startTask(request, receiver: .delegate(SFSpeechRecognitionTask.WeakDelegate(delegate)))
    }

    private func startTask(_ request: SFSpeechRecognitionRequest,
                           receiver: SFSpeechRecognitionTask.Receiver) -> SFSpeechRecognitionTask {
        if request.taskHint == .unspecified, defaultTaskHint != .unspecified {
            request.taskHint = defaultTaskHint
        }
        let task = SFSpeechRecognitionTask(request: request, receiver: receiver, queue: queue, scheduler: scheduler)
        let status = authorizationStatusProvider()
        let failure: (any Error)? = AuthorizationStore.refusalReason(for: status)
            .map { ErrorMapping.Legacy.notAuthorized.error(reason: $0) }
        let language = LocaleMapping.whisperLanguage(for: locale, among: LocaleMapping.whisperLanguages)
        task.start(locale: locale, language: language, factory: sessionFactory, failure: failure)
        return task
    }
}
