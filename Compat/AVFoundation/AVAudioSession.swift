// AVAudioSession: how the app uses audio, and record permission (API.md §2.10).

/// The app's audio session: category, mode, options, activation and record
/// permission.
///
/// Provided on Linux without `@available(macOS, unavailable)`, so unguarded
/// iOS sample code compiles.
/// - Note: On Linux setters record the state and succeed; there is no audio
///   policy to negotiate with. Permission means the ALSA capture device can be
///   opened (see `requestRecordPermission(_:)`).
open class AVAudioSession: NSObject, @unchecked Sendable {
    private static let sharedSession = AVAudioSession()
    private let lock = NSLock()
    private var settings = Settings()

    /// Everything the session records, guarded by `lock`.
    private struct Settings {
        var category = Category.soloAmbient
        var mode = Mode.default
        var options = CategoryOptions()
        var policy = RouteSharingPolicy.default
        var active = false
        var preferredRate = 0.0
        var preferredIOBufferDuration = 0.0
    }

    /// Posted when the session is interrupted.
    public static let interruptionNotification = NSNotification.Name("AVAudioSessionInterruptionNotification")
    /// Posted when the audio route changes.
    public static let routeChangeNotification = NSNotification.Name("AVAudioSessionRouteChangeNotification")
    /// Posted when the media services were reset.
    public static let mediaServicesWereResetNotification = NSNotification.Name("AVAudioSessionMediaServicesWereResetNotification")

    /// The shared session.
    open class func sharedInstance() -> AVAudioSession { sharedSession }

    private func update(_ body: (inout Settings) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(&settings)
    }

    private var snapshot: Settings {
        lock.lock()
        defer { lock.unlock() }
        return settings
    }

    /// Sets the category.
    open func setCategory(_ category: Category) throws {
        update { $0.category = category }
    }

    /// Sets the category and its options.
    open func setCategory(_ category: Category, options: CategoryOptions = []) throws {
        update { $0.category = category; $0.options = options }
    }

    /// Sets the category, mode and options.
    open func setCategory(_ category: Category, mode: Mode, options: CategoryOptions = []) throws {
        update { $0.category = category; $0.mode = mode; $0.options = options }
    }

    /// Sets the category, mode, route-sharing policy and options.
    open func setCategory(_ category: Category, mode: Mode, policy: RouteSharingPolicy,
                          options: CategoryOptions = []) throws {
        update { $0.category = category; $0.mode = mode; $0.policy = policy; $0.options = options }
    }

    /// Sets the mode.
    open func setMode(_ mode: Mode) throws {
        update { $0.mode = mode }
    }

    /// Activates or deactivates the session.
    open func setActive(_ active: Bool, options: SetActiveOptions = []) throws {
        update { $0.active = active }
    }

    /// The current category (`.soloAmbient` until set).
    open var category: Category { snapshot.category }
    /// The current mode.
    open var mode: Mode { snapshot.mode }
    /// The current category options.
    open var categoryOptions: CategoryOptions { snapshot.options }
    /// The current route-sharing policy.
    open var routeSharingPolicy: RouteSharingPolicy { snapshot.policy }
    /// Whether `setActive(true)` was called last (SpeechCompat addition for tests and logs).
    open var isActive: Bool { snapshot.active }

    /// The hardware sample rate: the capture device's when it opens, else the
    /// preferred rate, else 48 kHz.
    open var sampleRate: Double {
        let source = AVAudioEngine.InputSource.default.makeSource()
        defer { source.close() }
        if (try? source.open()) != nil { return Double(source.parameters.rate) }
        let preferred = snapshot.preferredRate
        return preferred > 0 ? preferred : 48_000
    }

    /// The preferred sample rate (0 until set).
    open var preferredSampleRate: Double { snapshot.preferredRate }

    /// Records a preferred sample rate.
    /// - Note: ALSA capture keeps the device's rate; convert with `AVAudioConverter`.
    open func setPreferredSampleRate(_ sampleRate: Double) throws {
        update { $0.preferredRate = sampleRate }
    }

    /// The preferred I/O buffer duration (0 until set).
    open var preferredIOBufferDuration: TimeInterval { snapshot.preferredIOBufferDuration }

    /// Records a preferred I/O buffer duration.
    open func setPreferredIOBufferDuration(_ duration: TimeInterval) throws {
        update { $0.preferredIOBufferDuration = duration }
    }

    /// The I/O buffer duration in seconds (20 ms, the capture period).
    open var ioBufferDuration: TimeInterval { 0.02 }

    /// Whether an input device can be opened now.
    open var isInputAvailable: Bool {
        let source = AVAudioEngine.InputSource.default.makeSource()
        defer { source.close() }
        return (try? source.open()) != nil
    }

    /// The record permission state.
    @available(iOS, introduced: 8.0, deprecated: 17.0, message: "Use AVAudioApplication.recordPermission")
    open var recordPermission: RecordPermission {
        switch RecordPermissionStore.shared.state {
        case .undetermined: return .undetermined
        case .denied: return .denied
        case .granted: return .granted
        }
    }

    /// Asks for record permission; `response` runs on a background queue.
    ///
    /// The closure is not `@Sendable`, as in Apple's SDK (Objective-C blocks
    /// import without it), so code that captures non-Sendable state compiles.
    /// - Note: On Linux the first request opens the capture device; later
    ///   requests return the stored answer.
    @available(iOS, introduced: 7.0, deprecated: 17.0, message: "Use AVAudioApplication.requestRecordPermission")
    open func requestRecordPermission(_ response: @escaping (Bool) -> Void) {
        // The answer arrives on another queue, as on iOS; the caller owns the
        // thread-safety of what the closure captures, as there.
        let handler = UncheckedPermissionHandler(response)
        RecordPermissionStore.shared.request { granted in handler.response(granted) }
    }
}

/// Carries a non-Sendable completion handler to the queue that answers.
private struct UncheckedPermissionHandler: @unchecked Sendable {
    let response: (Bool) -> Void
    init(_ response: @escaping (Bool) -> Void) { self.response = response }
}
