// Microphone permission on Linux: granted when the capture device opens.
// Shared by AVAudioSession, AVAudioApplication and AVCaptureDevice.

import Foundation

/// The process's answer to "may this app record?".
///
/// Undetermined until someone asks; the first request opens the ALSA capture
/// device (as configured by the environment) and remembers whether that
/// worked, as iOS remembers the user's answer. `SPEECHCOMPAT_RECORD_PERMISSION`
/// (`granted` or `denied`) overrides the probe, for testing denial paths.
final class RecordPermissionStore: @unchecked Sendable {
    /// The stored state.
    enum State: Sendable { case undetermined, denied, granted }

    /// The process-wide store.
    static let shared = RecordPermissionStore()

    /// The environment variable that overrides the device probe.
    static let overrideVariable = "SPEECHCOMPAT_RECORD_PERMISSION"

    private let lock = NSLock()
    private var answer: State = .undetermined
    /// Whether capture is possible; replaced in tests through `resetForTesting`.
    private var probe: @Sendable () -> Bool = RecordPermissionStore.deviceOpens

    /// Whether the default input source (the ALSA device from the
    /// environment unless a test chose a file or signal) opens.
    private static let deviceOpens: @Sendable () -> Bool = {
        let source = AVAudioEngine.InputSource.default.makeSource()
        defer { source.close() }
        return (try? source.open()) != nil
    }

    /// The current state, without asking.
    var state: State {
        lock.lock()
        defer { lock.unlock() }
        return answer
    }

    /// Asks once (probing the device or reading the override) and returns
    /// the stored answer on later calls.
    func request() -> Bool {
        lock.lock()
        let known = answer
        let probe = self.probe
        lock.unlock()
        if known != .undetermined { return known == .granted }
        let granted: Bool
        switch ProcessInfo.processInfo.environment[RecordPermissionStore.overrideVariable]?.lowercased() {
        case "granted": granted = true
        case "denied": granted = false
        default: granted = probe()
        }
        lock.lock()
        if answer == .undetermined { answer = granted ? .granted : .denied }
        let stored = answer
        lock.unlock()
        return stored == .granted
    }

    /// Asks on a background queue and calls back there, as iOS does.
    func request(completion: @escaping @Sendable (Bool) -> Void) {
        DispatchQueue.global(qos: .userInitiated).async { completion(self.request()) }
    }

    /// Forgets the answer and optionally replaces the probe (tests only).
    func resetForTesting(probe: (@Sendable () -> Bool)? = nil) {
        lock.lock()
        answer = .undetermined
        self.probe = probe ?? RecordPermissionStore.deviceOpens
        lock.unlock()
    }
}
