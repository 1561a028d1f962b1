// AVAudioApplication: app-wide audio state, including record permission
// (API.md §2.11).

/// The app's audio state: microphone permission and input muting.
/// - Note: On Linux permission means the capture device can be opened; the
///   first request checks, later ones return the stored answer.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
open class AVAudioApplication: NSObject, @unchecked Sendable {
    /// Record permission states. The Swift name really is lower-case.
    public enum recordPermission: Int, @unchecked Sendable {
        /// Not asked yet.
        case undetermined = 1_970_168_948
        /// Refused (on Linux: the capture device did not open).
        case denied = 1_684_369_017
        /// Allowed (on Linux: the capture device opened).
        case granted = 1_735_552_628
    }

    /// Posted when the input mute state changes.
    public static let inputMuteStateChangeNotification = NSNotification.Name("AVAudioApplicationInputMuteStateChangeNotification")
    /// The `userInfo` key holding the new mute state (`Bool`).
    public static let muteStateKey = "AVAudioApplicationMuteStateKey"

    private static let sharedInstance = AVAudioApplication()
    private let lock = NSLock()
    private var muted = false

    /// The shared instance.
    open class var shared: AVAudioApplication { sharedInstance }

    /// The current record permission.
    open var recordPermission: AVAudioApplication.recordPermission {
        switch RecordPermissionStore.shared.state {
        case .undetermined: return .undetermined
        case .denied: return .denied
        case .granted: return .granted
        }
    }

    /// Asks for record permission; the handler runs on a background queue.
    open class func requestRecordPermission(completionHandler response: @escaping @Sendable (Bool) -> Void) {
        RecordPermissionStore.shared.request(completion: response)
    }

    /// Asks for record permission.
    open class func requestRecordPermission() async -> Bool {
        await withCheckedContinuation { continuation in
            RecordPermissionStore.shared.request { continuation.resume(returning: $0) }
        }
    }

    /// Whether app input is muted.
    /// - Note: On Linux muting is recorded; the engine still captures.
    open var isInputMuted: Bool {
        lock.lock()
        defer { lock.unlock() }
        return muted
    }

    /// Mutes or unmutes app input and posts `inputMuteStateChangeNotification`.
    open func setInputMuted(_ muted: Bool) throws {
        lock.lock()
        let changed = self.muted != muted
        self.muted = muted
        lock.unlock()
        if changed {
            NotificationCenter.default.post(name: AVAudioApplication.inputMuteStateChangeNotification, object: self,
                                            userInfo: [AVAudioApplication.muteStateKey: muted])
        }
    }
}
