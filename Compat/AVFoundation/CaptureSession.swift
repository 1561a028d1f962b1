// The engine's capture loop: a background thread reads the source, paces
// itself to real time, feeds the input node's taps, and reports a vanished
// device instead of crashing.

import Foundation

/// One run of capture, from `AVAudioEngine.start()` to `stop()`.
final class CaptureSession: @unchecked Sendable {
    private let source: AudioCaptureSource
    private let taps: TapRegistry
    private let format: AVAudioFormat
    private let onFailure: @Sendable (NSError) -> Void
    private let lock = NSLock()
    private var running = false
    private var framesDelivered: AVAudioFramePosition = 0
    private let finished = DispatchSemaphore(value: 0)
    /// What the delivered buffers carry, so recognition can hear of a failure.
    let origin = CaptureOrigin()
    /// The serial queue tap blocks run on (never the main thread).
    let deliveryQueue = DispatchQueue(label: "SpeechCompat.AVAudioEngine.tap")
    private static let deliveryKey = DispatchSpecificKey<Bool>()

    /// A session over an opened source; `onFailure` runs on the capture thread
    /// if the device fails.
    init(source: AudioCaptureSource, taps: TapRegistry, onFailure: @escaping @Sendable (NSError) -> Void) {
        self.source = source
        self.taps = taps
        self.format = source.parameters.standardFormat
        self.onFailure = onFailure
        deliveryQueue.setSpecific(key: CaptureSession.deliveryKey, value: true)
    }

    /// The host time capture started at.
    private(set) var hostStart: UInt64 = 0

    /// Starts the capture thread.
    func start() {
        lock.lock()
        running = true
        lock.unlock()
        hostStart = AVAudioTime.now()
        let thread = Thread { [self] in captureLoop() }
        thread.name = "SpeechCompat.AVAudioEngine.capture"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Stops capture, waits for the thread, and lets queued tap calls finish
    /// (unless called from a tap block itself).
    func stop() {
        lock.lock()
        let wasRunning = running
        running = false
        lock.unlock()
        if wasRunning { _ = finished.wait(timeout: .now() + 2) }
        if DispatchQueue.getSpecific(key: CaptureSession.deliveryKey) != true { deliveryQueue.sync {} }
    }

    /// The time of the latest captured frame, while capturing.
    var lastRenderTime: AVAudioTime? {
        lock.lock()
        defer { lock.unlock() }
        guard running else { return nil }
        let host = hostStart + UInt64((Double(framesDelivered) / format.sampleRate * 1e9).rounded())
        return AVAudioTime(hostTime: host, sampleTime: framesDelivered, atRate: format.sampleRate)
    }

    private var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return running
    }

    private func captureLoop() {
        defer {
            source.close()
            for tap in taps.all { tap.discardPending() }
            finished.signal()
        }
        var capturedFrames: AVAudioFramePosition = 0
        let channels = Int(format.channelCount)
        var inputEnded = false
        while isRunning {
            if inputEnded {
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            switch source.read() {
            case .samples(let samples):
                let frames = samples.count / channels
                guard frames > 0 else { Thread.sleep(forTimeInterval: 0.002); continue }
                let sampleTime = capturedFrames
                capturedFrames += AVAudioFramePosition(frames)
                waitUntilRealTime(capturedFrames)
                lock.lock()
                framesDelivered = capturedFrames
                lock.unlock()
                for tap in taps.all {
                    tap.append(samples, source: format, sampleTime: sampleTime, hostStart: hostStart,
                               origin: origin, queue: deliveryQueue)
                }
            case .endOfInput:
                inputEnded = true
                for tap in taps.all { tap.flush(source: format, hostStart: hostStart, origin: origin, queue: deliveryQueue) }
            case .failure(let error):
                lock.lock()
                running = false
                lock.unlock()
                // What the taps gathered so far is delivered, then the failure,
                // so it is heard after the last audio the device gave.
                for tap in taps.all { tap.flush(source: format, hostStart: hostStart, origin: origin, queue: deliveryQueue) }
                let origin = self.origin
                deliveryQueue.async { origin.deviceFailed(error) }
                onFailure(error)
            }
        }
    }

    /// Sleeps until `frames` frames would have been captured in real time, so
    /// sources that do not block (the ALSA `file` plugin) run at real pace.
    private func waitUntilRealTime(_ frames: AVAudioFramePosition) {
        let due = hostStart + UInt64((Double(frames) / format.sampleRate * 1e9).rounded())
        let now = AVAudioTime.now()
        if due > now { Thread.sleep(forTimeInterval: Double(due - now) / 1e9) }
    }
}
