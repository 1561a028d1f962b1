@testable import AVFoundation
import Foundation
import TestSupport
import Testing

/// A capture device that goes away mid-stream, through real ALSA (a `file`
/// plugin whose output FIFO loses its reader: `snd_pcm_readi` fails with
/// -EIO): the engine stops, posts `AVAudioEngineConfigurationChange` with the
/// device error, delivers what was captured first, and the buffers' capture
/// origin reports the failure to whoever watches it (the Speech faces).
@Suite struct AVAudioEngineDeviceVanishingTests {
    /// Tap deliveries across threads.
    private final class Taps: @unchecked Sendable {
        private let lock = NSLock()
        private var frames = 0
        private var origins: [CaptureOrigin?] = []
        func add(_ buffer: AVAudioPCMBuffer) {
            lock.withLock {
                frames += Int(buffer.frameLength)
                origins.append(buffer.captureOrigin)
            }
        }
        var snapshot: (frames: Int, origins: [CaptureOrigin?]) { lock.withLock { (frames, origins) } }
    }

    /// Whether an error arrived, across threads.
    private final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: NSError?
        func set(_ error: NSError?) { lock.withLock { stored = stored ?? error } }
        var value: NSError? { lock.withLock { stored } }
    }

    @Test func unpluggedALSADeviceStopsTheEngineWithATypedErrorAfterTheAudioItGave() async throws {
        let tone = (0..<48_000).map { Int16(8_000 * sin(Double($0) * 2 * .pi * 440 / 16_000)) }
        let microphone = try VanishingMicrophone(samples: tone, vanishAfterSeconds: 1.0)
        defer { microphone.remove() }
        let engine = AVAudioEngine(inputSource: .alsa(device: microphone.deviceName,
                                                      configurationFile: microphone.configurationURL))
        let taps = Taps()
        let format = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1,
                                                interleaved: true))
        engine.inputNode.installTap(onBus: 0, bufferSize: 1_600, format: format) { buffer, _ in taps.add(buffer) }
        let notified = Box()
        let observer = NotificationCenter.default.addObserver(forName: .AVAudioEngineConfigurationChange, object: engine,
                                                              queue: nil) { note in
            notified.set(note.userInfo?[NSUnderlyingErrorKey] as? NSError)
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try engine.start()
        #expect(microphone.waitUntilVanished(timeout: hangGuardSeconds))
        await poll(until: { notified.value != nil })
        let error = try #require(notified.value)
        #expect(error.code == Int(kAudioHardwareBadDeviceError))
        #expect(error.localizedDescription.contains("went away or failed mid-stream"))
        #expect(error.localizedDescription.contains(microphone.deviceName))
        #expect(!engine.isRunning)

        // The audio before the failure reached the tap (1 s was written out
        // when the reader closed; the plugin reads ahead of its writes).
        let (frames, origins) = taps.snapshot
        #expect(frames >= 16_000 && frames < 48_000, "\(frames) frames")
        let origin = try #require(origins.first ?? nil)
        #expect(origins.allSatisfy { $0 === origin })
        #expect(origin.deviceFailure?.code == error.code)

        // A watcher registered after the failure hears it too.
        let late = Box()
        origin.whenDeviceFails { late.set($0) }
        await poll(until: { late.value != nil })
        #expect(late.value?.code == error.code)
        engine.stop()
    }

    @Test func converterOutputKeepsTheCaptureOrigin() throws {
        let origin = CaptureOrigin()
        let source = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1))
        let target = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1,
                                                interleaved: false))
        let input = try #require(AVAudioPCMBuffer(pcmFormat: source, frameCapacity: 4_800))
        input.frameLength = 4_800
        input.captureOrigin = origin
        let converter = try #require(AVAudioConverter(from: source, to: target))
        let output = try #require(AVAudioPCMBuffer(pcmFormat: target, frameCapacity: 1_600))
        nonisolated(unsafe) var given = false
        var error: NSError?
        converter.convert(to: output, error: &error) { _, status in
            defer { given = true }
            status.pointee = given ? .noDataNow : .haveData
            return given ? nil : input
        }
        #expect(error == nil && output.frameLength > 0)
        #expect(output.captureOrigin === origin)

        let sameRate = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 48_000, channels: 1,
                                                  interleaved: true))
        let plain = try #require(AVAudioPCMBuffer(pcmFormat: sameRate, frameCapacity: 4_800))
        try #require(AVAudioConverter(from: source, to: sameRate)).convert(to: plain, from: input)
        #expect(plain.captureOrigin === origin)
    }
}
