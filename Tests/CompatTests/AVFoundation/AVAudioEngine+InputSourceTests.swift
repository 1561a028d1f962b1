import AVFoundation
import Foundation
import Testing

/// AVAudioEngine.InputSource: the public way to choose what `inputNode`
/// captures (a file or a synthetic signal), per engine or for `AVAudioEngine()`.
@Suite(.serialized) struct AVAudioEngineInputSourceTests {
    /// Gathers tap output across threads.
    private final class Collector: @unchecked Sendable {
        private let lock = NSLock()
        private var samples: [Float] = []
        func add(_ buffer: AVAudioPCMBuffer) {
            lock.lock()
            defer { lock.unlock() }
            samples += UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
        }
        var all: [Float] {
            lock.lock()
            defer { lock.unlock() }
            return samples
        }
    }

    private func capture(_ engine: AVAudioEngine, seconds: Double) async throws -> (AVAudioFormat, [Float]) {
        let input = engine.inputNode
        let format = input.outputFormat(forBus: 0)
        let collector = Collector()
        input.installTap(onBus: 0, bufferSize: 800, format: nil) { buffer, _ in collector.add(buffer) }
        engine.prepare()
        try engine.start()
        try await Task.sleep(for: .seconds(seconds))
        engine.stop()
        input.removeTap(onBus: 0)
        return (format, collector.all)
    }

    @Test func aFileSourceDeliversTheFileInItsFormat() async throws {
        let folder = try AudioSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("tone.wav")
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1))
        let tone = AudioSignals.sine(frequency: 440, sampleRate: 16_000, count: 4_000)
        let file = try AVAudioFile(forWriting: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 16_000,
                                                              AVNumberOfChannelsKey: 1, AVLinearPCMBitDepthKey: 32,
                                                              AVLinearPCMIsFloatKey: true])
        try file.write(from: AudioSignals.buffer(format, planar: [tone]))
        file.close()
        let (hardware, samples) = try await capture(AVAudioEngine(inputSource: .file(url)), seconds: 0.6)
        #expect(hardware.sampleRate == 16_000 && hardware.channelCount == 1)
        #expect(samples == tone)
    }

    @Test func aSyntheticSourceBecomesTheDefaultForPlainEngines() async throws {
        let previous = AVAudioEngine.InputSource.default
        defer { AVAudioEngine.InputSource.default = previous }
        AVAudioEngine.InputSource.default = .synthetic(sampleRate: 8_000, duration: 0.25) { frame, _ in
            Float(frame % 100) / 100
        }
        let (hardware, samples) = try await capture(AVAudioEngine(), seconds: 0.5)
        #expect(hardware.sampleRate == 8_000)
        #expect(samples.count == 2_000 && samples[150] == 0.5)
        #expect(AVAudioSession.sharedInstance().isInputAvailable)
    }

    @Test func aMissingFileFailsAtStart() throws {
        let engine = AVAudioEngine(inputSource: .file(URL(fileURLWithPath: "/nonexistent/clip.wav")))
        _ = engine.inputNode
        #expect { try engine.start() } throws: { ($0 as NSError).code == Int(kAudioFileFileNotFoundError) }
        #expect(!engine.isRunning)
    }
}
