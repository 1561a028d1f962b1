@testable import AVFoundation
import Foundation
import Testing
import TestSupport

/// AVAudioEngine capture through ALSA (a `file`-plugin microphone) and the
/// engine's behaviour without a device or when the device vanishes.
@Suite struct AVAudioEngineTests {
    /// Collects tap deliveries across threads.
    private final class Collector: @unchecked Sendable {
        private let lock = NSLock()
        private var samples: [Int16] = []
        private var times: [AVAudioFramePosition] = []
        private var formats: [AVAudioFormat] = []
        private var offMainThread = true
        private var lastArrival = Date.distantPast

        func add(_ buffer: AVAudioPCMBuffer, _ time: AVAudioTime) {
            lock.lock()
            defer { lock.unlock() }
            formats.append(buffer.format)
            times.append(time.sampleTime)
            offMainThread = offMainThread && !Thread.isMainThread
            lastArrival = Date()
            if let data = buffer.int16ChannelData {
                samples += UnsafeBufferPointer(start: data[0], count: Int(buffer.frameLength))
            }
        }

        var snapshot: (samples: [Int16], times: [AVAudioFramePosition], formats: [AVAudioFormat], offMain: Bool, last: Date) {
            lock.lock()
            defer { lock.unlock() }
            return (samples, times, formats, offMainThread, lastArrival)
        }
    }

    private func engine(device: String, configuration: URL?) -> AVAudioEngine {
        AVAudioEngine(makeSource: {
            ALSACaptureSource(configuration: ALSAConfiguration(deviceName: device, configurationPath: configuration?.path))
        })
    }

    @Test func fileMicrophoneDeliversTheFileThroughATapAtRealTimePace() async throws {
        let microphone = try FileMicrophone(clip: AudioSignals.corpusClip("audio/pocketsphinx/ps_cards_002.wav"))
        defer { microphone.remove() }
        let expected = try microphone.samples()
        let duration = Double(expected.count) / 16_000
        let engine = engine(device: microphone.deviceName, configuration: microphone.configurationURL)
        let input = engine.inputNode
        let hardware = input.outputFormat(forBus: 0)
        #expect(hardware.sampleRate == 16_000 && hardware.channelCount == 1 && hardware.isStandard)
        let tapFormat = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1, interleaved: true))
        let collector = Collector()
        input.installTap(onBus: 0, bufferSize: 1_600, format: tapFormat) { buffer, time in collector.add(buffer, time) }
        engine.prepare()
        let started = Date()
        try engine.start()
        #expect(engine.isRunning)
        try await Task.sleep(for: .milliseconds(500))
        let renderTime = try #require(input.lastRenderTime)
        let renderedSeconds = Double(renderTime.sampleTime) / 16_000
        let elapsedSeconds = Date().timeIntervalSince(started)
        #expect(renderTime.isSampleTimeValid && renderedSeconds <= elapsedSeconds + 0.05)
        #expect(renderedSeconds > min(elapsedSeconds, duration) - 0.3)
        while collector.snapshot.samples.count < expected.count && Date().timeIntervalSince(started) < 6 {
            try await Task.sleep(for: .milliseconds(20))
        }
        let result = collector.snapshot
        engine.stop()
        input.removeTap(onBus: 0)
        #expect(!engine.isRunning && input.lastRenderTime == nil)
        #expect(result.samples.count == expected.count)
        #expect(result.samples == expected)
        #expect(result.formats.allSatisfy { $0 == tapFormat })
        #expect(result.times == result.times.indices.map { AVAudioFramePosition($0 * 1_600) })
        #expect(result.offMain)
        // Real time: the last buffer arrives about one clip-length after start.
        let elapsed = result.last.timeIntervalSince(started)
        #expect(elapsed > duration * 0.9 && elapsed < duration + 1.0)
    }

    @Test func startWithoutADeviceThrowsATypedError() throws {
        let engine = engine(device: "speechcompat_no_such_device", configuration: nil)
        let input = engine.inputNode
        #expect(input.outputFormat(forBus: 0).sampleRate == 48_000)
        input.installTap(onBus: 0, bufferSize: 4_800, format: nil) { _, _ in }
        let error = try #require(throws: NSError.self) { try engine.start() }
        #expect(error.domain == NSOSStatusErrorDomain && error.code == Int(kAudioHardwareBadDeviceError))
        #expect(error.localizedDescription.contains("speechcompat_no_such_device"))
        #expect(!engine.isRunning)
    }

    @Test func missingConfigurationFileIsATypedError() throws {
        let engine = engine(device: "testmic", configuration: URL(fileURLWithPath: "/nonexistent/alsa.conf"))
        _ = engine.inputNode
        let error = try #require(throws: NSError.self) { try engine.start() }
        #expect(error.code == Int(kAudioHardwareBadDeviceError) && error.localizedDescription.contains("/nonexistent/alsa.conf"))
    }

    /// A source that delivers two periods, then fails like an unplugged device.
    private final class VanishingSource: AudioCaptureSource {
        let parameters = ALSAStreamParameters(rate: 16_000, channels: 1, sampleFormat: .float32, periodFrames: 160)
        private var reads = 0
        func open() throws {}
        func read() -> CaptureRead {
            reads += 1
            if reads <= 2 { return .samples([Float](repeating: 0.25, count: 160)) }
            return .failure(AudioError.make(kAudioHardwareBadDeviceError, "unplugged"))
        }
        func close() {}
    }

    @Test func vanishingDeviceStopsTheEngineAndPostsAConfigurationChange() async throws {
        let engine = AVAudioEngine(makeSource: { VanishingSource() })
        let collector = Collector()
        let format = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1, interleaved: false))
        engine.inputNode.installTap(onBus: 0, bufferSize: 160, format: format) { buffer, time in collector.add(buffer, time) }
        let notified = NotificationFlag()
        let observer = NotificationCenter.default.addObserver(forName: .AVAudioEngineConfigurationChange, object: engine,
                                                              queue: nil) { _ in notified.set() }
        defer { NotificationCenter.default.removeObserver(observer) }
        try engine.start()
        #expect(await poll(until: { notified.isSet }))
        #expect(!engine.isRunning)
        engine.stop()
        #expect(collector.snapshot.samples == [Int16](repeating: 8_192, count: 320))
    }

    /// A source that never ends and counts its reads.
    private final class EndlessSource: AudioCaptureSource, @unchecked Sendable {
        let parameters = ALSAStreamParameters(rate: 16_000, channels: 1, sampleFormat: .float32, periodFrames: 160)
        private let lock = NSLock()
        private var reads = 0
        private var closed = false
        func open() throws {}
        func read() -> CaptureRead {
            lock.lock()
            reads += 1
            lock.unlock()
            return .samples([Float](repeating: 0, count: 160))
        }
        func close() { lock.lock(); closed = true; lock.unlock() }
        var isClosed: Bool { lock.lock(); defer { lock.unlock() }; return closed }
    }

    @Test func releasingARunningEngineStopsCapture() throws {
        let source = EndlessSource()
        var engine: AVAudioEngine? = AVAudioEngine(makeSource: { source })
        _ = engine?.inputNode
        try engine?.start()
        #expect(engine?.isRunning == true && !source.isClosed)
        engine = nil
        #expect(source.isClosed)
    }

    @Test func graphCallsWorkAsOnApple() throws {
        let engine = AVAudioEngine(makeSource: { VanishingSource() })
        let mixer = engine.mainMixerNode
        #expect(engine.attachedNodes.contains(engine.outputNode) && engine.attachedNodes.contains(mixer))
        let player = AVAudioMixerNode()
        engine.attach(player)
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1))
        engine.connect(player, to: mixer, format: format)
        #expect(mixer.inputFormat(forBus: 0) == format && mixer.nextAvailableInputBus == 1)
        engine.disconnectNodeInput(mixer)
        #expect(mixer.nextAvailableInputBus == 0)
        engine.detach(player)
        #expect(!engine.attachedNodes.contains(player) && player.engine == nil)
        engine.prepare()
        try engine.start()
        #expect(engine.isRunning)
        engine.stop()
        #expect(!engine.isRunning)
    }
}

/// A thread-safe flag set by a notification observer.
private final class NotificationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
