@testable import AVFoundation
import Foundation
import Testing

/// AVAudioSession and AVAudioApplication: recorded state and record
/// permission (granted when the capture device opens, remembered after).
@Suite(.serialized) struct AVAudioSessionTests {
    @Test func sessionRecordsCategoryModeAndOptions() throws {
        let session = AVAudioSession.sharedInstance()
        #expect(session === AVAudioSession.sharedInstance())
        try session.setCategory(.record, mode: .measurement, options: .duckOthers)
        try session.setActive(true, options: .notifyOthersOnDeactivation)
        #expect(session.category == .record && session.mode == .measurement && session.categoryOptions == .duckOthers)
        #expect(session.isActive)
        try session.setCategory(.playAndRecord, options: [.defaultToSpeaker, .allowBluetoothA2DP])
        #expect(session.category == .playAndRecord && session.categoryOptions.rawValue == 0x28)
        try session.setPreferredSampleRate(16_000)
        #expect(session.preferredSampleRate == 16_000)
        try session.setActive(false)
        #expect(!session.isActive)
        #expect(AVAudioSession.CategoryOptions.interruptSpokenAudioAndMixWithOthers.rawValue == 17)
        #expect(AVAudioSession.RecordPermission.granted.rawValue == 1_735_552_628)
    }

    /// The two iOS 26 options carry Apple's bits (0x80000, 0x40000) and are
    /// recorded like the others.
    @Test func iOS26CategoryOptionsKeepApplesBits() throws {
        let session = AVAudioSession.sharedInstance()
        #expect(AVAudioSession.CategoryOptions.bluetoothHighQualityRecording.rawValue == 0x80000)
        #expect(AVAudioSession.CategoryOptions.farFieldInput.rawValue == 0x40000)
        try session.setCategory(.playAndRecord, mode: .default,
                                options: [.allowBluetoothHFP, .bluetoothHighQualityRecording, .farFieldInput])
        #expect(session.categoryOptions.contains(.bluetoothHighQualityRecording))
        #expect(session.categoryOptions.contains(.farFieldInput))
        #expect(session.categoryOptions.rawValue == 0xC0004)
    }

    @Test func permissionIsAskedOnceAndRemembered() async throws {
        let store = RecordPermissionStore.shared
        let probes = ProbeCounter(answer: false)
        store.resetForTesting(probe: { probes.ask() })
        defer { store.resetForTesting() }
        #expect(AVAudioApplication.shared.recordPermission == .undetermined)
        #expect(AVAudioSession.sharedInstance().recordPermission == .undetermined)
        #expect(AVCaptureDevice.authorizationStatus(for: .audio) == .notDetermined)
        let first = await AVAudioApplication.requestRecordPermission()
        #expect(!first && AVAudioApplication.shared.recordPermission == .denied)
        let second = await withCheckedContinuation { continuation in
            AVAudioSession.sharedInstance().requestRecordPermission { continuation.resume(returning: $0) }
        }
        #expect(!second && probes.count == 1)
        #expect(AVCaptureDevice.authorizationStatus(for: .audio) == .denied)

        store.resetForTesting(probe: { true })
        #expect(await AVCaptureDevice.requestAccess(for: .audio))
        #expect(AVAudioSession.sharedInstance().recordPermission == .granted)
        #expect(AVAudioApplication.shared.recordPermission == .granted)
        #expect(!(await AVCaptureDevice.requestAccess(for: .video)))
    }

    @Test func permissionCallbackRunsOffTheMainThread() async {
        RecordPermissionStore.shared.resetForTesting(probe: { true })
        defer { RecordPermissionStore.shared.resetForTesting() }
        let onMain = await withCheckedContinuation { continuation in
            AVAudioApplication.requestRecordPermission { _ in continuation.resume(returning: Thread.isMainThread) }
        }
        #expect(!onMain)
    }

    @Test func inputMutingPostsANotification() throws {
        let application = AVAudioApplication.shared
        let posted = MuteLog()
        let observer = NotificationCenter.default.addObserver(forName: AVAudioApplication.inputMuteStateChangeNotification,
                                                              object: application, queue: nil) { note in
            posted.append(note.userInfo?[AVAudioApplication.muteStateKey] as? Bool ?? false)
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try application.setInputMuted(true)
        try application.setInputMuted(true)
        try application.setInputMuted(false)
        #expect(posted.values == [true, false] && !application.isInputMuted)
    }
}

/// Counts permission probes and answers a fixed value.
private final class ProbeCounter: @unchecked Sendable {
    private let lock = NSLock()
    private let answer: Bool
    private var asked = 0
    init(answer: Bool) { self.answer = answer }
    func ask() -> Bool { lock.lock(); asked += 1; lock.unlock(); return answer }
    var count: Int { lock.lock(); defer { lock.unlock() }; return asked }
}

/// Mute states seen by an observer.
private final class MuteLog: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [Bool] = []
    func append(_ value: Bool) { lock.lock(); seen.append(value); lock.unlock() }
    var values: [Bool] { lock.lock(); defer { lock.unlock() }; return seen }
}
